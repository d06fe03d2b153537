"""Test-log parsers: test output -> {test id: status}. One registry; pytest first."""

from __future__ import annotations

import re
from collections.abc import Callable

Parser = Callable[[str, int], dict[str, str]]
STATUSES = ("PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS")
_LINE = re.compile(rf"^({'|'.join(STATUSES)}) (.+)$", re.M)
_PARAMETRIZED = re.compile(r"(\S+?\[.*?\])(?: - |$)")  # ids like test_x[a b - c] hold spaces and dashes


def pytest_rA(output: str, exit_code: int) -> dict[str, str]:
    """Per-test results from pytest's `-rA` short summary ("PASSED tests/x.py::test_a")."""
    results: dict[str, str] = {}
    for status, rest in _LINE.findall(output):
        if status == "SKIPPED" and rest.startswith("["):  # "SKIPPED [1] file:line: reason" has no id
            continue
        param = _PARAMETRIZED.match(rest)
        test = param.group(1) if param else rest.split(" - ", 1)[0].strip()
        results[test] = status
    return results


def exit_code(output: str, exit_code: int) -> dict[str, str]:
    """For suites judged by the test command's exit status alone."""
    return {"(all)": "PASSED" if exit_code == 0 else "FAILED"}


PARSERS: dict[str, Parser] = {"pytest": pytest_rA, "exit_code": exit_code}
