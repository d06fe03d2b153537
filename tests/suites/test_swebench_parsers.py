"""dgm's SWE-bench log parsers and grading against the official swebench package, on recorded
and synthetic logs in data/swebench_logs/, plus plain expectations on dgm's own results."""

from __future__ import annotations

from pathlib import Path

import pytest

from dgm.suites.swebench import PARSERS, parser
from dgm.suites.swebench import report as dgm_report
from dgm.suites.task import BenchmarkError

from .official_swebench import harness

LOGS = Path(__file__).parent / "data" / "swebench_logs"
LOG_NAMES = sorted(p.name for p in LOGS.glob("*.log"))


def log(name: str) -> str:
    return (LOGS / name).read_text()


def official_python_names() -> set[str]:
    official = harness()
    module = official.python_parsers.__name__
    return {name for name, fn in official.registry.items() if fn.__module__ == module}


def test_there_are_enough_recorded_logs():
    assert len(LOG_NAMES) >= 8


def test_registry_covers_exactly_the_official_python_parsers():
    assert set(PARSERS) == official_python_names()


@pytest.mark.parametrize("log_name", LOG_NAMES)
def test_every_parser_agrees_with_the_official_one_on_every_log(log_name):
    official = harness()
    text = log(log_name)
    differing = [
        name for name in sorted(official_python_names()) if PARSERS[name](text) != official.registry[name](text, None)
    ]
    assert differing == []


def test_every_official_marker_constant_is_the_same_string():
    constants = harness().constants
    names = ["APPLY_PATCH_FAIL", "RESET_FAILED", "TESTS_ERROR", "TESTS_TIMEOUT"]
    names += ["START_TEST_OUTPUT", "END_TEST_OUTPUT", "TEST_EXIT_CODE"]
    assert {n: getattr(dgm_report, n) for n in names} == {n: getattr(constants, n) for n in names}
    assert dgm_report.SUITE_RAN.pattern == harness().grading.SUITE_RAN.pattern


def test_unknown_parser_name_is_a_benchmark_error_listing_the_known_ones():
    with pytest.raises(BenchmarkError, match=r"unknown SWE-bench log parser 'parse_log_cobol'.*parse_log_django"):
        parser("parse_log_cobol")


READINGS = {
    "django gives each test its status": (
        "parse_log_django",
        "django.log",
        {
            "test_add_view (admin_views.tests.AdminViewBasicTest)": "PASSED",
            "test_change_view (admin_views.tests.AdminViewBasicTest)": "FAILED",
            "test_delete_view (admin_views.tests.AdminViewBasicTest)": "ERROR",
            "test_history_view (admin_views.tests.AdminViewBasicTest)": "SKIPPED",
            "test_prints (admin_views.tests.AdminViewBasicTest)": "PASSED",  # `ok` on the next line
            "test_no_migrations (migrations.test_commands.MakeMigrationsTests)": "PASSED",
            "more than one line.": "PASSED",  # a docstring's last line is what the runner names
        },
    ),
    "pytest's summary keeps failures": (
        "parse_log_pytest",
        "pytest_ra.log",
        {
            "testing/test_collection.py::TestCollectFS::test_ignored_certain_dirs": "FAILED",
            "testing/test_collection.py::TestSession::test_parsearg": "ERROR",
            "testing/test_collection.py::test_xfail_reason": "XFAIL",
            "testing/test_collection.py::test_windows_only": "SKIPPED",
        },
    ),
    "pytest_v2 strips colours and keeps spaces in ids": (
        "parse_log_astropy",
        "pytest_v2_ansi.log",
        {
            "astropy/units/tests/test_format.py::test_ogip_grammar_fail[log(photon /cm**2)]": "PASSED",
            "astropy/io/ascii/tests/test_cds.py::test_write_byte_by_byte_units": "FAILED",
            "sklearn/tests/test_base.py::test_get_params": "PASSED",  # the status-last form
        },
    ),
    "pytest_options shortens absolute path parameters": (
        "parse_log_pylint",
        "pytest_options.log",
        {
            "tests/test_pylint.py::test_functional[/regression_1.py]": "PASSED",
            "tests/test_pylint.py::test_functional[/unused_import.py]": "FAILED",
            "tests/test_pylint.py::test_glob[/tmp/data/*.py]": "PASSED",
        },
    ),
    "sympy reads verbose lines and failure headers": (
        "parse_log_sympy",
        "sympy.log",
        {
            "test_structure": "PASSED",
            "test_matches_basic": "FAILED",
            "test_has": "ERROR",
            "sympy/core/tests/test_basic.py:test_has": "FAILED",
        },
    ),
    "matplotlib writes mouse buttons as numbers": (
        "parse_log_matplotlib",
        "matplotlib.log",
        {
            "lib/matplotlib/tests/test_widgets.py::test_span_selector_drag[1]": "PASSED",
            "lib/matplotlib/tests/test_widgets.py::test_lasso_selector[1-True]": "FAILED",
        },
    ),
}


def test_pytest_skip_summary_counts_are_not_tests():
    statuses = parser("parse_log_pytest")(log("pytest_ra.log"))
    assert statuses
    assert "[1]" not in statuses
    assert "[2]" not in statuses


@pytest.mark.parametrize("case", READINGS, ids=list(READINGS))
def test_a_parser_reads_these_statuses(case):
    name, file, expected = READINGS[case]
    statuses = parser(name)(log(file))
    assert {test: statuses.get(test) for test in expected} == expected
