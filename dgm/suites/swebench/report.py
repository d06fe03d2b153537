"""The official SWE-bench grading of one evaluation log (swebench 5.0.2's `get_logs_eval`,
`get_eval_tests_report` and `get_resolution_status`), as one pure function: `grade`. The log is
the harness's whole eval output; whether it can be believed (the patch applied, the tests ran
and finished, the runner's exit status agrees with what it printed) is decided first, then each
FAIL_TO_PASS and PASS_TO_PASS test is scored against the parsed statuses."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..task import BenchmarkError
from .parsers import ERROR, FAILED, PASSED, SKIPPED, XFAIL, parser

# Markers the official eval script writes into the log (swebench.harness.constants).
APPLY_PATCH_FAIL = ">>>>> Patch Apply Failed"
RESET_FAILED = ">>>>> Reset Failed"
TESTS_ERROR = ">>>>> Tests Errored"
TESTS_TIMEOUT = ">>>>> Tests Timed Out"
START_TEST_OUTPUT = ">>>>> Start Test Output"
END_TEST_OUTPUT = ">>>>> End Test Output"
TEST_EXIT_CODE = ">>>>> Test Exit Code"
BAD_CODES = (APPLY_PATCH_FAIL, RESET_FAILED, TESTS_ERROR, TESTS_TIMEOUT)

PASS_AND_FAIL, FAIL_ONLY = "pass_and_fail", "fail_only"
RESOLVED_FULL, RESOLVED_PARTIAL, RESOLVED_NO = "RESOLVED_FULL", "RESOLVED_PARTIAL", "RESOLVED_NO"

# Evidence that a runner executed at all, for a log whose parsed statuses are empty. Every
# count must be non-zero: "Executed 0 of 0" is a runner that never started.
SUITE_RAN = re.compile(
    r"Executed [1-9]\d* of \d+"
    r"|TOTAL: [1-9]\d* (?:SUCCESS|FAILED)"
    r"|[1-9]\d* passing"
    r"|Tests:\s+[1-9]\d*"
    r"|Test Suites:\s+(?:\d+ \w+, )*[1-9]\d* total"
    r"|^# tests [1-9]\d*"
    r"|[1-9]\d* specs?, \d+ failures?"
    r"|': ok$",
    re.M,
)
_EXIT_CODE = re.compile(rf"{re.escape(TEST_EXIT_CODE)}:\s*(-?\d+)")
_PASSING = (PASSED, XFAIL)


@dataclass(frozen=True)
class Outcome:
    """One list's tests split as the official report does; a test can be in neither."""

    success: tuple[str, ...] = ()
    failure: tuple[str, ...] = ()

    @property
    def rate(self) -> float:
        """Share of successes; 1 for a list with nothing scored (the official convention)."""
        total = len(self.success) + len(self.failure)
        return len(self.success) / total if total else 1


@dataclass(frozen=True)
class Report:
    statuses: dict[str, str]
    usable: bool
    reason: str | None  # why the log is not usable: bad_code | no_markers | no_results | exit_code
    fail_to_pass: Outcome = field(default_factory=Outcome)
    pass_to_pass: Outcome = field(default_factory=Outcome)

    @property
    def resolution(self) -> str:
        """RESOLVED_FULL, RESOLVED_PARTIAL or RESOLVED_NO; an unusable log is never resolved."""
        f2p, p2p = self.fail_to_pass.rate, self.pass_to_pass.rate
        if not self.usable or p2p != 1:
            return RESOLVED_NO
        return RESOLVED_FULL if f2p == 1 else RESOLVED_PARTIAL if f2p > 0 else RESOLVED_NO

    @property
    def resolved(self) -> bool:
        return self.resolution == RESOLVED_FULL


def read_statuses(log: str, parser_name: str) -> tuple[dict[str, str], str | None]:
    """The statuses of the log's test section and None, or {} and why the log is not usable."""
    if any(code in log for code in BAD_CODES):
        return {}, "bad_code"
    if START_TEST_OUTPUT not in log or END_TEST_OUTPUT not in log:
        return {}, "no_markers"
    parse = parser(parser_name)
    # Some runners print results outside the markers, hence the whole log as a fallback.
    statuses = parse(log.split(START_TEST_OUTPUT)[1].split(END_TEST_OUTPUT)[0]) or parse(log)
    if not statuses and not SUITE_RAN.search(log):
        return {}, "no_results"
    # Code under test can print its own PASSED lines; a non-zero exit with no failure shown
    # means the log does not describe the run that happened.
    found = _EXIT_CODE.search(log)
    if found and int(found.group(1)) != 0 and statuses and not ({FAILED, ERROR} & set(statuses.values())):
        return {}, "exit_code"
    return statuses, None


def resolve_case(case: str, statuses: dict[str, str]) -> str | None:
    """The status key for `case`. An id truncated inside its parameters (more `[` than `]`, as
    676 SWE-bench Verified ids are) matches by prefix when all candidates agree on pass/fail."""
    if case in statuses:
        return case
    if case.count("[") > case.count("]"):
        keys = [key for key in statuses if key.startswith(case)]
        if keys and len({statuses[key] in _PASSING for key in keys}) == 1:
            return keys[0]
    return None


def _split(cases: Iterable[str], statuses: dict[str, str], eval_type: str, skip_ok: bool) -> Outcome:
    """Score one list. `skip_ok`: a skipped test counts as kept (PASS_TO_PASS), not as failed."""
    success, failure = [], []
    for case in cases:
        if eval_type == FAIL_ONLY:
            (failure if statuses.get(case) == FAILED else success).append(case)
            continue
        key = resolve_case(case, statuses)
        status = statuses[key] if key is not None else None
        if status in _PASSING or (skip_ok and status == SKIPPED):
            success.append(case)
        elif status in (None, FAILED, ERROR, SKIPPED):
            failure.append(case)
    return Outcome(tuple(success), tuple(failure))


def grade(
    log: str, parser_name: str, fail_to_pass: Iterable[str], pass_to_pass: Iterable[str], eval_type: str = PASS_AND_FAIL
) -> Report:
    """Grade one eval log as the official harness does. `log` is its text; line endings are
    normalised as the harness's text-mode read of the log file does."""
    if eval_type not in (PASS_AND_FAIL, FAIL_ONLY):
        raise BenchmarkError(f"unknown SWE-bench eval_type {eval_type!r} (known: {PASS_AND_FAIL}, {FAIL_ONLY})")
    log = log.replace("\r\n", "\n").replace("\r", "\n")
    statuses, reason = read_statuses(log, parser_name)
    if reason is not None:
        return Report(statuses, usable=False, reason=reason)
    return Report(
        statuses,
        usable=True,
        reason=None,
        fail_to_pass=_split(fail_to_pass, statuses, eval_type, skip_ok=False),
        pass_to_pass=_split(pass_to_pass, statuses, eval_type, skip_ok=True),
    )
