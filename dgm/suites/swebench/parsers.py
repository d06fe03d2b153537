"""SWE-bench's Python test-log parsers, reimplemented so that dgm grades SWE-bench instances
exactly as the official harness (swebench 5.0.2) does, without importing that package (its
dependencies pull in `datasets`, `modal` and more). Each parser reads a log and returns a map
from test id to status; the names are those of swebench's `PARSER_REGISTRY`, so an instance's
`log_parser` field selects one directly. Parity with the package is checked by the tests."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..task import BenchmarkError

PASSED, FAILED, SKIPPED, ERROR, XFAIL = "PASSED", "FAILED", "SKIPPED", "ERROR", "XFAIL"
STATUSES = (FAILED, PASSED, SKIPPED, ERROR, XFAIL)

Parser = Callable[[str], dict[str, str]]

# pytest's `SKIPPED [N] path:line: reason` summary: `[N]` is a count, not a test id.
_SKIP_COUNT = re.compile(r"^\[\d+\]$")
_OPTION = re.compile(r"(.*?)\[(.*)\]")
_COLOUR = re.compile(r"\[(\d+)m")
_CONTROL = str.maketrans("", "", "".join(chr(c) for c in range(1, 32)))
_SYMPY_FAILURE = re.compile(r"(_*) (.*)\.py:(.*) (_*)")
# Django's runner sometimes prints a multi-line message between `... ` and `ok`.
_DJANGO_INTERRUPTED = (
    re.compile(r"^(.*?)\s\.\.\.\sTesting\ against\ Django\ installed\ in\ ((?s:.*?))\ silenced\)\.\nok$", re.M),
    re.compile(r"^(.*?)\s\.\.\.\sInternal\ Server\ Error:\ \/(.*)\/\nok$", re.M),
    re.compile(r"^(.*?)\s\.\.\.\sSystem check identified no issues \(0 silenced\)\nok$", re.M),
)
_DJANGO_PASS_SUFFIXES = (" ... ok", " ... OK", " ...  OK")


def _summary_fields(line: str) -> list[str] | None:
    """The whitespace-split fields of a pytest `-rA` summary line (`STATUS id [- message]`), or
    None when the line is not one: no status prefix, no id, or a skip summary's `[N]` count."""
    if not line.startswith(STATUSES):
        return None
    if line.startswith(FAILED):
        line = line.replace(" - ", " ")
    fields = line.split()
    if len(fields) <= 1 or (fields[0] == SKIPPED and _SKIP_COUNT.match(fields[1])):
        return None
    return fields


def parse_log_pytest(log: str) -> dict[str, str]:
    """pytest `-rA` summary lines: `PASSED tests/test_a.py::test_x`."""
    statuses = {}
    for line in log.split("\n"):
        if fields := _summary_fields(line):
            statuses[fields[1]] = fields[0]
    return statuses


def parse_log_pytest_options(log: str) -> dict[str, str]:
    """As `parse_log_pytest`, but a parameter that is an absolute path keeps only its last
    component (`test_x[/tmp/abc/file]` -> `test_x[/file]`), so ids do not depend on temp dirs."""
    statuses = {}
    for line in log.split("\n"):
        if not (fields := _summary_fields(line)):
            continue
        name = fields[1]
        if found := _OPTION.search(name):
            main, option = found.groups()
            if option.startswith("/") and not option.startswith("//") and "*" not in option:
                option = "/" + option.split("/")[-1]
            name = f"{main}[{option}]"
        statuses[name] = fields[0]
    return statuses


def parse_log_matplotlib(log: str) -> dict[str, str]:
    """As `parse_log_pytest`, with mouse-button enum names in ids written as their numbers."""
    statuses = {}
    for line in log.split("\n"):
        line = line.replace("MouseButton.LEFT", "1").replace("MouseButton.RIGHT", "3")
        if fields := _summary_fields(line):
            statuses[fields[1]] = fields[0]
    return statuses


def parse_log_pytest_v2(log: str) -> dict[str, str]:
    """pytest output with colour codes and control characters stripped; ids may contain spaces.
    Also reads older pytest's `id STATUS` lines (status last)."""
    statuses = {}
    for line in log.split("\n"):
        line = _COLOUR.sub("", line).translate(_CONTROL)
        if line.startswith(STATUSES):
            if line.startswith(FAILED):
                line = line.split(" - ", 1)[0]  # the assertion message is not part of the id
            fields = line.split()
            if len(fields) >= 2 and not (fields[0] == SKIPPED and _SKIP_COUNT.match(fields[1])):
                statuses[" ".join(fields[1:])] = fields[0]
        elif line.endswith(STATUSES):
            fields = line.split()
            if len(fields) >= 2:
                statuses[" ".join(fields[:-1])] = fields[-1]
    return statuses


def parse_log_seaborn(log: str) -> dict[str, str]:
    """seaborn's logs: `FAILED id`, `id PASSED ...` (verbose progress) or `PASSED id`."""
    statuses = {}
    for line in log.split("\n"):
        fields = line.split()
        if len(fields) < 2:
            continue
        if line.startswith(FAILED):
            statuses[fields[1]] = FAILED
        elif f" {PASSED} " in line:
            if fields[1] == PASSED:
                statuses[fields[0]] = PASSED
        elif line.startswith(PASSED):
            statuses[fields[1]] = PASSED
    return statuses


def parse_log_sympy(log: str) -> dict[str, str]:
    """sympy's own runner: `test_x ok|F|E` lines, and `___ path.py:test_x ___` failure headers."""
    statuses = {f"{m[1]}.py:{m[2]}": FAILED for m in _SYMPY_FAILURE.findall(log)}
    for line in log.split("\n"):
        line = line.strip()
        if not line.startswith("test_"):
            continue
        for suffix, status in ((" E", ERROR), (" F", FAILED), (" ok", PASSED)):
            if line.endswith(suffix):
                statuses[line.split()[0]] = status
    return statuses


def parse_log_django(log: str) -> dict[str, str]:
    """Django's runner: `test_x (module.Class) ... ok|FAIL|ERROR|skipped '...'`, `FAIL: id` and
    `ERROR: id` headers, and an `ok` on a later line when the test printed something first."""
    statuses = {}
    previous = None
    for line in log.split("\n"):
        line = line.strip()
        # a test whose description spans lines; the official parser special-cases it
        if "--version is equivalent to version" in line:
            statuses["--version is equivalent to version"] = PASSED
        if " ... " in line:
            previous = line.split(" ... ")[0]
        for suffix in _DJANGO_PASS_SUFFIXES:
            if line.endswith(suffix):
                # django__django-7188: a migration message shares the line with the test id
                if line.startswith("Applying sites.0002_alter_domain_unique...test_no_migrations"):
                    line = line.split("...", 1)[-1].strip()
                statuses[line.rsplit(suffix, 1)[0]] = PASSED
                break
        if " ... skipped" in line:
            statuses[line.split(" ... skipped")[0]] = SKIPPED
        if line.endswith(" ... FAIL"):
            statuses[line.split(" ... FAIL")[0]] = FAILED
        if line.startswith("FAIL:"):
            statuses[line.split()[1].strip()] = FAILED
        if line.endswith(" ... ERROR"):
            statuses[line.split(" ... ERROR")[0]] = ERROR
        if line.startswith("ERROR:"):
            statuses[line.split()[1].strip()] = ERROR
        if line.startswith("ok") and previous is not None:
            statuses[previous] = PASSED
    for pattern in _DJANGO_INTERRUPTED:
        for found in pattern.finditer(log):
            statuses[found.group(1)] = PASSED
    return statuses


# Official name -> parser. The per-repository names are aliases, kept so that an instance's
# `log_parser` field (or swebench's repo map) selects the same function the harness would.
PARSERS: dict[str, Parser] = {
    "parse_log_pytest": parse_log_pytest,
    "parse_log_pytest_options": parse_log_pytest_options,
    "parse_log_django": parse_log_django,
    "parse_log_pytest_v2": parse_log_pytest_v2,
    "parse_log_seaborn": parse_log_seaborn,
    "parse_log_sympy": parse_log_sympy,
    "parse_log_matplotlib": parse_log_matplotlib,
    **{f"parse_log_{repo}": parse_log_pytest for repo in ("astroid", "flask", "marshmallow", "pvlib")},
    **{f"parse_log_{repo}": parse_log_pytest for repo in ("pyvista", "sqlfluff", "xarray")},
    **{f"parse_log_{repo}": parse_log_pytest_options for repo in ("pydicom", "requests", "pylint")},
    **{f"parse_log_{repo}": parse_log_pytest_v2 for repo in ("astropy", "scikit", "sphinx")},
}


def parser(name: str) -> Parser:
    """The parser registered under `name`; an unknown name is a `BenchmarkError` naming the known ones."""
    try:
        return PARSERS[name]
    except KeyError:
        known = ", ".join(sorted(PARSERS))
        raise BenchmarkError(f"unknown SWE-bench log parser {name!r} (known: {known})") from None
