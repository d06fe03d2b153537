"""The built-in suite: its shape, and its proof (every reference resolves, no empty patch
does), graded in real sandboxes exactly as `dgm bench validate builtin` does."""

from __future__ import annotations

import re

from click.testing import CliRunner

from dgm.cli import main
from dgm.suites import load_suite
from dgm.suites.loaders.taskdir import BUILTIN_DIR
from dgm.suites.patches import files_in_patch, is_test_path


def test_builtin_suite_shape():
    suite = load_suite("builtin")
    counts = suite.counts()
    assert len(suite.tasks) >= 40, counts
    assert counts["dev"] >= 30, counts
    assert counts["test"] >= 10, counts
    assert {t.difficulty for t in suite.tasks} == {"easy", "medium", "hard"}
    for task in suite.tasks:
        folder = BUILTIN_DIR / task.id
        sources = [p for p in (folder / "repo").rglob("*") if p.is_file()]
        assert 3 <= len(sources) <= 15, (task.id, len(sources))
        assert any("tests" in p.parts for p in sources), f"{task.id}: the repo has no tests of its own"
        assert not list(folder.rglob("__pycache__")), f"{task.id}: bytecode left in the task folder"
        touched = files_in_patch(task.reference_patch)
        assert touched, (task.id, touched)
        assert not any(is_test_path(p) for p in touched), (task.id, touched)
        assert task.fail_to_pass, task.id
        assert task.hidden_files, task.id
        for hidden in task.hidden_files:
            assert not (folder / "repo" / hidden).exists(), f"{task.id}: {hidden} would replace a visible file"
            assert re.sub(r"\.py$", "", hidden.split("/")[-1]) not in task.statement, task.id
        assert len(task.statement) > 80, f"{task.id}: statement too short to be a real report"


def test_builtin_suite_validates():
    result = CliRunner().invoke(main, ["bench", "validate", "builtin", "--workers", "2"])
    summary, twins = result.output.strip().splitlines()[-2:]
    assert result.exit_code == 0, result.output[-3000:]
    n = len(load_suite("builtin").tasks)
    assert summary.startswith(f"tasks={n} reference_resolved={n}/{n} empty_resolved=0/{n}")
    assert summary.endswith("OK")
    covered, total = map(int, re.match(r"twins: (\d+)/(\d+) tests that must pass", twins).groups())
    assert 0 < covered <= total, twins
    assert twins.endswith("references judged gamed 0, tampered 0"), twins


def test_validate_only_the_named_tasks():
    result = CliRunner().invoke(main, ["bench", "validate", "builtin", "--task", "text-slug-separators"])
    assert result.exit_code == 0, result.output[-3000:]
    assert "validating 1 tasks" in result.output
    assert "text-slug-separators" in result.output
    summary, twins = result.output.strip().splitlines()[-2:]
    assert summary.startswith("tasks=1 reference_resolved=1/1 empty_resolved=0/1")
    assert twins.startswith("twins: 3/3 tests that must pass have a literal expectation (100%)"), twins
    unknown = CliRunner().invoke(main, ["bench", "validate", "builtin", "--task", "no-such-task"])
    assert unknown.exit_code == 1
    assert "no task 'no-such-task'" in unknown.output
