"""The pytest harness's host side: the grader-owned configuration is the base repository's
(every file kind pytest reads, found as pytest finds it), canaries are fresh and leave no
trace in the log, and a task command that is not a plain pytest run is refused."""

from __future__ import annotations

import dataclasses

import pytest

from dgm.suites import BenchmarkError, load_suite
from dgm.suites.harness import HARNESSES, ExitCodeHarness, PytestHarness, canaries, harness_for
from dgm.suites.harness.pytest_config import common_folder, locate
from dgm.suites.harness.pytest_harness import path_args, split_command

KINDS = {
    "pytest.toml": ("[pytest]\naddopts = ['-q']\n", ".toml"),
    ".pytest.toml": ("[pytest]\naddopts = ['-q']\n", ".toml"),
    "pytest.ini": ("[pytest]\naddopts = -q\n", ".ini"),
    ".pytest.ini": ("[pytest]\naddopts = -q\n", ".ini"),
    "pyproject.toml": ("[tool.pytest.ini_options]\naddopts = '-q'\n", ".toml"),
    "tox.ini": ("[pytest]\naddopts = -q\n", ".ini"),
    "setup.cfg": ("[tool:pytest]\naddopts = -q\n", ".cfg"),
}


@pytest.mark.parametrize("name", sorted(KINDS))
def test_base_configuration_of_each_kind_is_found(tmp_path, name):
    text, suffix = KINDS[name]
    (tmp_path / "tests").mkdir()
    (tmp_path / name).write_text(text)
    config = locate(tmp_path, "tests")
    assert (config.folder, config.suffix, config.content) == (".", suffix, text.encode())
    assert config.path(".dgm-grader-x") == f".dgm-grader-x{suffix}"


def test_pytest_precedence_and_sections_without_pytest_are_skipped(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = x\n")  # no pytest section
    (tmp_path / "tox.ini").write_text("[pytest]\naddopts = -x\n")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no pytest section
    assert locate(tmp_path, "tests").content == b"[pytest]\naddopts = -x\n"
    (tmp_path / "tests" / "pytest.ini").write_text("[pytest]\n")  # nearer the tests: it wins, and roots there
    assert (locate(tmp_path, "tests").folder, locate(tmp_path, "tests").content) == ("tests", b"[pytest]\n")


def test_no_configuration_roots_at_a_bare_pyproject_or_the_repository(tmp_path):
    assert (locate(tmp_path).folder, locate(tmp_path).content) == (".", b"[pytest]\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert locate(tmp_path, "pkg").folder == "pkg"


def test_test_paths_and_their_common_folder():
    args = ["-rfEsxXp", "-p", "no:cacheprovider", "-k", "slow", "tests/a/test_x.py::test_y", "tests/b/test_z.py"]
    assert path_args(args) == ["tests/a/test_x.py", "tests/b/test_z.py"]
    assert common_folder(["tests/a/test_x.py", "tests/b/test_z.py"]) == "tests"
    assert common_folder(["test_x.py"]) == "."


def test_only_plain_pytest_commands_are_graded_by_the_pytest_harness():
    task = load_suite("builtin").task("text-slug-separators")
    assert split_command(task)[0] == "-rfEsxXp"
    odd = dataclasses.replace(task, test_command="cd tests && python3 -m pytest {tests}")
    with pytest.raises(BenchmarkError, match="not of that form"):
        split_command(odd)
    assert isinstance(harness_for(dataclasses.replace(task, log_parser="exit_code")), ExitCodeHarness)
    assert isinstance(harness_for(task), PytestHarness)
    assert set(HARNESSES) == {"pytest", "go_test", "cargo_test", "junit", "jest", "catch", "exit_code"}
    with pytest.raises(BenchmarkError, match="unknown log_parser"):
        harness_for(dataclasses.replace(task, log_parser="tap"))


def test_canaries_are_fresh_ordinary_and_scrubbed_from_logs():
    first, second = canaries.draw(), canaries.draw("def test_keeps_empty_window(): pass")
    assert first.names() != second.names()
    assert all(n.startswith("test_") and n.count("_") == 3 for n in first.names())
    assert "test_keeps_empty_window" not in second.names()
    log = (
        "FF..\n=== FAILURES ===\n"
        f"____ {first.must_fail} ____\n\n    def {first.must_fail}():\n>       assert x\nE   AssertionError\n"
        "____ test_real ____\n    real failure\n=== short test summary info ===\n"
        f"FAILED tests/test_a.py::{first.must_fail} - AssertionError\nFAILED tests/test_a.py::test_real - boom\n"
        f"PASSED tests/test_a.py::{first.must_pass}\n2 failed, 2 passed in 0.1s\n"
    )
    clean = first.scrub(log)
    assert first.must_fail not in clean
    assert first.must_pass not in clean
    assert "real failure" in clean
    assert "FAILED tests/test_a.py::test_real - boom" in clean


def test_a_suite_with_a_task_its_harness_cannot_run_is_refused_by_name(tmp_path):
    import json
    import shutil

    from dgm.suites.loaders.taskdir import BUILTIN_DIR

    shutil.copytree(BUILTIN_DIR / "text-slug-separators", tmp_path / "t")
    meta = json.loads((tmp_path / "t" / "task.json").read_text())
    (tmp_path / "t" / "task.json").write_text(json.dumps({**meta, "test_command": "make check"}))
    with pytest.raises(BenchmarkError, match="task text-slug-separators: the pytest harness"):
        load_suite(f"taskdir:{tmp_path}")
    (tmp_path / "t" / "task.json").write_text(
        json.dumps({**meta, "test_command": "make check", "log_parser": "exit_code"})
    )
    assert load_suite(f"taskdir:{tmp_path}").tasks[0].log_parser == "exit_code"


def test_options_that_stop_a_run_at_its_first_failure_are_dropped():
    from dgm.suites.harness.pytest_harness import without_stops

    args = ["-x", "-q", "--maxfail", "2", "--maxfail=1", "tests/a.py", "--sw", "-k", "x"]
    assert without_stops(args) == ["-q", "tests/a.py", "-k", "x"]
