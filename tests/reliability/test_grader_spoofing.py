"""Scores an agent cannot forge: patches that fix nothing but try to make the hidden tests
look passed (configuration files of every kind pytest reads, plugins by every loading route,
stand-ins for pytest, code in the package under test patching pytest's reports, runner,
terminal reporter or the tests themselves, exit tricks, forged output) are graded not
resolved on both isolating backends; a patch that also edits pyproject.toml and setup.cfg
outside pytest's sections still resolves. Each attack not aimed at dgm's judge itself is
first shown to fool a grader that trusts the test process."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dgm.suites import Grader, load_suite
from dgm.suites.patches import tree_patch
from tests.reliability.spoofing import ATTACKS, JUDGE_ONLY, NAIVE_RUN, fools_naive_grader, new_file, run_plainly
from tests.sandbox.conftest import backend  # noqa: F401 - both isolating backends

pytestmark = [pytest.mark.faults, pytest.mark.minutes(2)]
TASK = "text-slug-separators"


@pytest.fixture(scope="module")
def slug():
    return load_suite("builtin").task(TASK)


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_spoofing_patch_is_not_resolved(backend, slug, tmp_path, attack):  # noqa: F811
    patch, outcomes = ATTACKS[attack]
    verdict = Grader(backend, tmp_path / "cache").grade(slug, patch)
    assert not verdict.resolved, (attack, verdict.tests, verdict.log[-1500:])
    assert verdict.reason in outcomes, (attack, verdict.reason, verdict.tamper, verdict.log[-1500:])
    assert (verdict.reason == "tampered") == bool(verdict.tamper)
    if verdict.reason == "tests_failed":  # the real results, not forged ones
        assert set(verdict.fail_to_pass.values()) == {"FAILED"}, verdict.log[-1500:]
        assert set(verdict.pass_to_pass.values()) == {"PASSED"}, verdict.log[-1500:]


@pytest.mark.parametrize("attack", sorted(set(ATTACKS) - JUDGE_ONLY))
def test_attack_fools_a_grader_that_trusts_the_test_process(bwrap, slug, tmp_path, attack):
    """The attacks are real: run plainly (patch unstripped, repository on PYTHONPATH as an
    editable install would put it), each makes the hidden tests look passed."""
    code, output = run_plainly(bwrap, slug, ATTACKS[attack][0], tmp_path, NAIVE_RUN)
    assert fools_naive_grader(code, output), (code, output[-1500:])


def test_canaries_do_not_reach_the_log(bwrap, slug, tmp_path):
    """What an agent later reads of a grading run does not name the canaries."""
    grader = Grader(bwrap, tmp_path / "cache")
    verdict = grader.grade(slug, "")
    assert verdict.reason == "tests_failed"
    assert not verdict.tamper
    assert set(verdict.tests) == {*slug.fail_to_pass, *slug.pass_to_pass}
    assert "values = [" not in verdict.log
    assert "@@dgm-judge" not in verdict.log
    assert "3 failed, 3 passed in" in verdict.log.splitlines()[-1]  # the counts are the task's own


@pytest.fixture
def configured_task(tmp_path):
    """The slug task in a repository that has its own pyproject.toml with a pytest section
    the tests depend on (strict markers, a marker the hidden tests use)."""
    import shutil

    from dgm.suites.loaders.taskdir import BUILTIN_DIR

    folder = tmp_path / "tasks" / TASK
    shutil.copytree(BUILTIN_DIR / TASK, folder)
    (folder / "repo" / "pyproject.toml").write_text(
        '[project]\nname = "textkit"\nversion = "0.1.0"\n\n'
        '[tool.pytest.ini_options]\naddopts = "--strict-markers"\nmarkers = ["slugs: slug tests"]\n'
    )
    hidden = folder / "hidden" / "tests" / "test_slug_spacing.py"
    hidden.write_text("import pytest\n\npytestmark = pytest.mark.slugs\n\n" + hidden.read_text())
    return load_suite(f"taskdir:{folder.parent}").task(TASK)


def test_legitimate_config_edits_still_resolve(backend, configured_task, tmp_path):  # noqa: F811
    """A fix that also bumps the version in pyproject.toml and adds a setup.cfg (outside
    pytest's sections) resolves; the base repository's own pytest section still applies."""
    bump = (
        "diff --git a/pyproject.toml b/pyproject.toml\n--- a/pyproject.toml\n+++ b/pyproject.toml\n"
        '@@ -1,3 +1,3 @@\n [project]\n name = "textkit"\n-version = "0.1.0"\n+version = "0.1.1"\n'
    )
    setup_cfg = new_file("setup.cfg", "[metadata]\nname = textkit\n\n[flake8]\nmax-line-length = 100\n")
    grader = Grader(backend, tmp_path / "cache")
    verdict = grader.grade(configured_task, configured_task.reference_patch + bump + setup_cfg)
    assert verdict.resolved, (verdict.reason, verdict.tamper, verdict.log[-1500:])
    assert not verdict.stripped
    assert not grader.grade(configured_task, bump + setup_cfg).resolved


POLYGLOT = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks" / "polyglot-benchmark.tar.gz"


@pytest.fixture(scope="module")
def proverb(tmp_path_factory):
    """A real polyglot exercise (Python, judged by "every test passes")."""
    if not POLYGLOT.exists():
        message = f"the shared polyglot benchmark is not at {POLYGLOT}"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    root = tmp_path_factory.mktemp("polyglot")
    member = "./python/exercises/practice/proverb"
    subprocess.run(["tar", "xzf", str(POLYGLOT), "-C", str(root), member], check=True)
    return load_suite(f"polyglot:{root}").task("python/proverb")


def test_polyglot_exercise_cannot_be_forged(backend, proverb, tmp_path):  # noqa: F811
    """The all-must-pass judgement gets the same treatment: canaries and fingerprints catch
    a solution module that forges pytest's reports, and the reference still resolves."""
    base, forged = tmp_path / "a", tmp_path / "b"
    grader = Grader(backend, tmp_path / "cache")
    shutil.copytree(grader.base(proverb), base)
    shutil.copytree(base, forged)
    (forged / "proverb.py").write_text(
        "from _pytest.reports import TestReport\n\n_init = TestReport.__init__\n\n\n"
        "def _passed(self, *a, **k):\n    _init(self, *a, **k)\n    self.outcome, self.longrepr = 'passed', None\n\n\n"
        "TestReport.__init__ = _passed\n\n\ndef proverb(*items, qualifier=None):\n    return []\n"
    )
    verdict = grader.grade(proverb, tree_patch(base, forged))
    assert (verdict.resolved, verdict.reason) == (False, "tampered"), verdict.log[-1500:]
    assert grader.grade(proverb, proverb.reference_patch).resolved
    assert not grader.grade(proverb, "").resolved
