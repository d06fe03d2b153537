"""What of an eval log the official parser may read, when the log comes from a run of code
an agent wrote. The official parsers believe any line that looks like a result, and code
under test can print such lines: from inside a test (pytest shows it back in a "Captured"
section), or after the run (an exit hook, after the session's summary). Before the parser
reads the test section of the log, this drops pytest's captured-output sections and
whatever follows the runner's closing summary (pytest's `=== N passed in Xs ===`, Django's
`Ran N tests` and its verdict line, sympy's `tests finished`). An honest log keeps every
result line. What remains: a runner without captured sections (Django, sympy) shows what
code under test prints between results, and that can still be read as results; the judge's
second run (see official.py) covers runs of pytest."""

from __future__ import annotations

import re

from .report import END_TEST_OUTPUT, START_TEST_OUTPUT

CAPTURED = re.compile(r"^-+ Captured (?:stdout|stderr|log)\b.*-+$")
SECTION = re.compile(r"^(?:_{3,}|={3,}|-{3,}) ")  # any pytest section header ends a captured one
PYTEST_END = re.compile(r"^=+ .*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|no tests ran)\b.* in [\d.]+s.*=+$")
DJANGO_END = re.compile(r"^Ran \d+ tests? in [\d.]+s$")
SYMPY_END = re.compile(r"^=+ tests finished: .*=+$")


def _pytest(lines: list[str]) -> list[str]:
    kept, captured = [], False
    for line in lines:
        if CAPTURED.match(line):
            captured = True
            continue
        if captured and SECTION.match(line):
            captured = False
        if not captured:
            kept.append(line)
    return _cut(kept, PYTEST_END, 1)


def _cut(lines: list[str], end: re.Pattern, keep_after: int) -> list[str]:
    """Up to the last line matching `end`, and `keep_after` - 1 lines after it."""
    last = max((i for i, line in enumerate(lines) if end.match(line)), default=None)
    return lines if last is None else lines[: last + keep_after]


def for_parser(log: str, parser_name: str) -> str:
    """`log` with its test section cut down to what the runner itself printed of its results."""
    if START_TEST_OUTPUT not in log or END_TEST_OUTPUT not in log:
        return log
    head, _, rest = log.partition(START_TEST_OUTPUT)
    section, _, tail = rest.partition(END_TEST_OUTPUT)
    lines = section.split("\n")
    if "django" in parser_name:
        lines = _cut(lines, DJANGO_END, 3)  # "Ran N tests", a blank line, OK or FAILED (...)
    elif "sympy" in parser_name:
        lines = _cut(lines, SYMPY_END, 1)
    else:
        lines = _pytest(lines)
    return head + START_TEST_OUTPUT + "\n".join(lines) + "\n" + END_TEST_OUTPUT + tail
