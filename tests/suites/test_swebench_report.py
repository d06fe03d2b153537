"""dgm's SWE-bench grading (`dgm.suites.swebench.grade`) against the official `get_logs_eval`,
`get_eval_tests_report` and `get_resolution_status`, on logs with the cases that decide a
verdict: missing and skipped tests, truncated ids, no markers, a contradicting exit code."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from dgm.suites.swebench import grade
from dgm.suites.task import BenchmarkError

from .official_swebench import harness

LOGS = Path(__file__).parent / "data" / "swebench_logs"
RA = "testing/test_collection.py::"
FMT = "astropy/units/tests/test_format.py::"
A = RA + "test_a"


def framed(body: str, exit_code: int | None = None) -> str:
    tail = "" if exit_code is None else f">>>>> Test Exit Code: {exit_code}\n"
    return f"+ git apply /tmp/patch.diff\n>>>>> Start Test Output\n{body}\n>>>>> End Test Output\n{tail}"


class Case(NamedTuple):
    log: str
    parser: str
    f2p: list[str]
    p2p: list[str]
    eval_type: str = "pass_and_fail"


CASES = {
    "resolved_with_xfail_and_skipped_p2p": Case(
        (LOGS / "pytest_ra.log").read_text(),
        "parse_log_pytest",
        [RA + "TestCollector::test_collect_versus_item", RA + "test_xfail_reason"],
        [RA + "TestCollector::test_check_equality", RA + "test_windows_only"],
    ),
    "missing_f2p_test": Case(
        (LOGS / "pytest_ra.log").read_text(), "parse_log_pytest", [RA + "test_not_there"], [RA + "test_param[a"]
    ),
    "skipped_f2p_test": Case((LOGS / "pytest_ra.log").read_text(), "parse_log_pytest", [RA + "test_windows_only"], []),
    "partial": Case(
        (LOGS / "pytest_ra.log").read_text(),
        "parse_log_pytest",
        [RA + "TestCollector::test_check_equality", RA + "TestSession::test_parsearg"],
        [],
    ),
    "p2p_broken": Case(
        (LOGS / "pytest_ra.log").read_text(),
        "parse_log_pytest",
        [RA + "test_xfail_reason"],
        [RA + "TestCollectFS::test_ignored_certain_dirs"],
    ),
    "truncated_parametrized_id": Case(
        (LOGS / "pytest_v2_ansi.log").read_text(), "parse_log_astropy", [FMT + "test_ogip_grammar_fail[log(photon"], []
    ),
    "ambiguous_truncated_id": Case(
        framed(f"PASSED {FMT}test_x[a b]\nFAILED {FMT}test_x[a c] - boom", exit_code=1),
        "parse_log_pytest_v2",
        [FMT + "test_x[a"],
        [],
    ),
    "no_markers": Case(f"PASSED {A}\n", "parse_log_pytest", [A], []),
    "nonzero_exit_without_failures": Case(framed(f"PASSED {A}", exit_code=2), "parse_log_pytest", [A], []),
    "zero_exit": Case(framed(f"PASSED {RA}test_a", exit_code=0), "parse_log_pytest", [RA + "test_a"], []),
    "patch_apply_failed": Case(
        ">>>>> Patch Apply Failed\n" + framed(f"PASSED {RA}test_a"), "parse_log_pytest", [RA + "test_a"], []
    ),
    "timed_out": Case(framed(f"PASSED {A}") + ">>>>> Tests Timed Out\n", "parse_log_pytest", [A], []),
    "results_outside_markers": Case(
        f"PASSED {RA}test_a\n" + framed("collected 1 item"), "parse_log_pytest", [RA + "test_a"], []
    ),
    "no_results_no_sign_of_a_run": Case(framed("ImportError: no module"), "parse_log_pytest", ["t"], [], "fail_only"),
    "no_results_but_suite_ran": Case(framed("  5 passing (2s)"), "parse_log_pytest", ["t"], ["u"], "fail_only"),
    "fail_only_django": Case(
        (LOGS / "django.log").read_text(),
        "parse_log_django",
        ["test_add_view (admin_views.tests.AdminViewBasicTest)", "test_missing (x.Y)"],
        ["test_history_view (admin_views.tests.AdminViewBasicTest)"],
        "fail_only",
    ),
    "django_failure": Case(
        (LOGS / "django.log").read_text(),
        "parse_log_django",
        ["test_change_view (admin_views.tests.AdminViewBasicTest)"],
        ["test_upper (admin_views.tests.AdminViewBasicTest)"],
    ),
    "crlf_line_endings": Case(
        framed(f"PASSED {RA}test_a\r\nFAILED {RA}test_b - x", exit_code=1).replace("\n", "\r\n"),
        "parse_log_pytest",
        [RA + "test_a"],
        [RA + "test_b"],
    ),
    "sympy": Case((LOGS / "sympy.log").read_text(), "parse_log_sympy", ["test_structure"], ["test_equality"]),
}


def official_grade(case: Case, tmp_path: Path) -> dict:
    """What the official harness decides for `case`: its log read back from a file, as it reads it."""
    official = harness()
    grading, constants = official.grading, official.constants
    path = tmp_path / "test_output.txt"
    path.write_bytes(case.log.encode())
    spec = official.TestSpec(
        instance_id="acme__calc-1",
        image="unused",
        eval_script_list=[],
        repo="acme/calc",
        version="1.0",
        FAIL_TO_PASS=case.f2p,
        PASS_TO_PASS=case.p2p,
        log_parser=case.parser,
        eval_type=case.eval_type,
    )
    statuses, usable = grading.get_logs_eval(spec, str(path))
    result = {"statuses": statuses, "usable": usable, "resolved": False}
    if usable:
        gold = {constants.FAIL_TO_PASS: case.f2p, constants.PASS_TO_PASS: case.p2p}
        report = grading.get_eval_tests_report(statuses, gold, eval_type=constants.EvalType(case.eval_type))
        result["lists"] = {k: report[k] for k in (constants.FAIL_TO_PASS, constants.PASS_TO_PASS)}
        result["resolution"] = grading.get_resolution_status(report)
        result["resolved"] = result["resolution"] == constants.ResolvedStatus.FULL.value
    return result


def dgm_grade(case: Case) -> dict:
    report = grade(case.log, case.parser, case.f2p, case.p2p, case.eval_type)
    result = {"statuses": report.statuses, "usable": report.usable, "resolved": report.resolved}
    if report.usable:
        result["lists"] = {
            name: {"success": list(outcome.success), "failure": list(outcome.failure)}
            for name, outcome in (("FAIL_TO_PASS", report.fail_to_pass), ("PASS_TO_PASS", report.pass_to_pass))
        }
        result["resolution"] = report.resolution
    return result


@pytest.mark.parametrize("name", sorted(CASES))
def test_grade_matches_the_official_report(name, tmp_path):
    case = CASES[name]
    assert dgm_grade(case) == official_grade(case, tmp_path)


def test_the_cases_cover_resolved_partial_unresolved_and_unusable():
    reports = [grade(c.log, c.parser, c.f2p, c.p2p, c.eval_type) for c in CASES.values()]
    assert {r.resolution for r in reports} == {"RESOLVED_FULL", "RESOLVED_PARTIAL", "RESOLVED_NO"}
    assert {r.reason for r in reports} == {None, "bad_code", "no_markers", "no_results", "exit_code"}


def test_truncated_id_is_resolved_when_its_candidates_agree():
    case = CASES["truncated_parametrized_id"]
    report = grade(case.log, case.parser, case.f2p, case.p2p)
    assert report.resolved
    assert report.fail_to_pass.success == (FMT + "test_ogip_grammar_fail[log(photon",)


def test_skipped_fail_to_pass_test_is_a_failure_but_a_skipped_pass_to_pass_test_is_kept():
    text = (LOGS / "pytest_ra.log").read_text()
    report = grade(text, "parse_log_pytest", [RA + "test_windows_only"], [RA + "test_windows_only"])
    assert report.fail_to_pass.failure == (RA + "test_windows_only",)
    assert report.pass_to_pass.success == (RA + "test_windows_only",)
    assert not report.resolved


def test_nonzero_exit_code_with_only_passes_makes_the_log_unusable():
    case = CASES["nonzero_exit_without_failures"]
    report = grade(case.log, case.parser, case.f2p, case.p2p)
    assert (report.usable, report.reason, report.statuses, report.resolved) == (False, "exit_code", {}, False)


def test_unknown_eval_type_is_a_benchmark_error():
    with pytest.raises(BenchmarkError, match="unknown SWE-bench eval_type 'strict'"):
        grade(framed("PASSED t"), "parse_log_pytest", ["t"], [], "strict")
