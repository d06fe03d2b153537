"""The grader's judgement, and the wall between the agent phase and the hidden tests."""

from __future__ import annotations

import pytest

from dgm.engine.work import agent_trajectory, evaluation_bundle
from dgm.suites import load_suite
from sandbox.fs import read_copied
from tests.helpers import SLUG_FIX, evaluate_with_bash, evaluate_with_tool_call, first_tool_output, trajectory


@pytest.fixture
def slug_task(taskdir):
    return load_suite(f"taskdir:{taskdir}").task("text-slug-separators")


def test_patch_editing_the_hidden_tests_is_stripped_and_flagged(grader, slug_task):
    cheat = """diff --git a/tests/test_slug_spacing.py b/tests/test_slug_spacing.py
new file mode 100644
--- /dev/null
+++ b/tests/test_slug_spacing.py
@@ -0,0 +1,6 @@
+def test_runs_of_spaces_give_one_separator():
+    pass
+def test_tabs_and_newlines_count_as_spaces():
+    pass
+def test_custom_separator():
+    pass
"""
    verdict = grader.grade(slug_task, cheat)
    assert verdict.stripped == ("tests/test_slug_spacing.py",)
    assert not verdict.resolved
    assert verdict.reason == "tests_failed"
    assert verdict.fail_to_pass["tests/test_slug_spacing.py::test_custom_separator"] == "FAILED"
    honest = grader.grade(slug_task, slug_task.reference_patch + cheat)
    assert honest.resolved
    assert honest.stripped == ("tests/test_slug_spacing.py",)


def test_patch_editing_a_visible_test_is_stripped_too(grader, slug_task):
    context = ["from textkit import slugify, word_count", "", "", "def test_simple_title():"]
    weaken = "diff --git a/tests/test_textkit.py b/tests/test_textkit.py\n--- a/tests/test_textkit.py\n"
    weaken += "+++ b/tests/test_textkit.py\n@@ -1,4 +1,4 @@\n" + "".join(f" {line}\n" for line in context)
    assert grader.grade(slug_task, weaken).stripped == ("tests/test_textkit.py",)


def test_patch_that_does_not_apply_is_a_recorded_failure(grader, slug_task):
    bogus = slug_task.reference_patch.replace('return re.sub(r"\\s", separator, text)', "return nothing_like_this")
    verdict = grader.grade(slug_task, bogus)
    assert (verdict.resolved, verdict.reason) == (False, "patch_failed")


def test_patch_that_breaks_imports_fails_with_errors(grader, slug_task):
    broken = slug_task.reference_patch.replace('+    return re.sub(r"\\s+", separator, text)', "+    return (")
    verdict = grader.grade(slug_task, broken)
    assert verdict.reason == "tests_failed"
    assert set(verdict.fail_to_pass.values()) <= {"ERROR", "MISSING", "FAILED"}


def test_a_hanging_test_run_is_a_timeout(grader, slug_task):
    import dataclasses

    hang = {"tests/test_slug_spacing.py": b"import time\n\n\ndef test_hangs():\n    time.sleep(30)\n"}
    slow = dataclasses.replace(slug_task, timeout=2.0, hidden_files=hang)
    verdict = grader.grade(slow, slow.reference_patch)
    assert (verdict.resolved, verdict.reason) == (False, "timeout")
    assert verdict.duration_s < 30


def test_a_crashing_test_command_yields_no_results(grader, slug_task):
    import dataclasses

    crash = dataclasses.replace(slug_task, hidden_files={"tests/test_slug_spacing.py": b"import os\n\nos.abort()\n"})
    assert grader.grade(crash, crash.reference_patch).reason == "no_results"


HUNT = (
    "grep -rl --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev "
    "-e runs_of_spaces_give_one_separator -e 'return re.sub(r\"\\\\s+\"' / 2>/dev/null; "
    "find / -xdev \\( -name reference.patch -o -name test_slug_spacing.py -o -name task.json \\) 2>/dev/null; "
    "git log --oneline; ls -a; echo HUNT-DONE"
)


def test_agent_phase_sees_neither_hidden_tests_nor_reference(bwrap, grader, slug_task, tmp_path):
    evaluation = evaluate_with_bash(bwrap, slug_task, HUNT, tmp_path, grader)
    found = first_tool_output(evaluation)
    assert "HUNT-DONE" in found
    listing = found.split("[exit code")[1]
    assert "test_slug_spacing" not in listing
    assert "reference.patch" not in listing
    assert "task.json" not in listing
    assert "runs_of_spaces" not in listing
    assert len([x for x in listing.splitlines() if " base" in x]) == 1  # one commit, no history
    user = next(m["content"] for m in trajectory(evaluation) if m["role"] == "user")
    assert slug_task.statement.strip() in user
    assert "FAIL_TO_PASS" not in user
    assert evaluation.patch == ""
    assert not evaluation.verdict.resolved


def test_evaluate_grades_what_the_agent_changed(bwrap, grader, slug_task, tmp_path):
    evaluation = evaluate_with_tool_call(bwrap, slug_task, SLUG_FIX, tmp_path, grader)
    assert evaluation.verdict.resolved, evaluation.verdict.log[-800:]
    assert "textkit/slug.py" in evaluation.patch
    assert ".git" not in evaluation.patch


def test_a_planted_symlink_in_out_never_reads_a_host_file(bwrap, grader, slug_task, tmp_path):
    """The agent swaps its trajectory for a link to a host file: what the engine keeps of the
    evaluation (and shows meta agents and the viewer) must not be that file."""
    secret = tmp_path / "host-secret.txt"
    secret.write_text("HOST-SECRET-7f3a\n")
    command = f"ln -sf {secret} /out/trajectory.jsonl && ln -sf {secret} /out/improve.json && echo planted"
    (tmp_path / "eval").mkdir()
    evaluation = evaluate_with_bash(bwrap, slug_task, command, tmp_path / "eval", grader)
    assert (evaluation.agent.out / "trajectory.jsonl").is_symlink()  # the link came out, as a link
    assert "HOST-SECRET" not in evaluation_bundle(evaluation).decode()
    assert agent_trajectory(evaluation.agent.out) == ""
    assert read_copied(evaluation.agent.out / "improve.json", 1000) == ""


def test_threads_grading_one_task_export_its_base_once(grader, slug_task, monkeypatch):
    import concurrent.futures
    import time

    exports, export = [], type(slug_task.repo).export

    def slow_export(self, dest):
        exports.append(dest)
        time.sleep(0.3)  # long enough for every thread to arrive while the first exports
        return export(self, dest)

    monkeypatch.setattr(type(slug_task.repo), "export", slow_export)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        bases = list(pool.map(lambda _: grader.base(slug_task), range(4)))
    assert len(set(bases)) == 1
    assert len(exports) == 1
    assert (bases[0] / "textkit" / "slug.py").is_file()


def test_a_command_that_stops_at_the_first_failure_still_grades_every_test(grader, taskdir):
    """The grader's must-fail tests (a canary, the twins) would end an `-x` run early."""
    import json

    meta = taskdir / "text-slug-separators" / "task.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "test_command": "python3 -m pytest -x -q {tests}"}))
    task = load_suite(f"taskdir:{taskdir}").task("text-slug-separators")
    verdict = grader.grade(task, task.reference_patch)
    assert verdict.resolved, (verdict.reason, verdict.tamper, verdict.log[-1500:])
    assert verdict.mutable == (3, 3), (verdict.reason, verdict.tamper, verdict.log[-1500:])
    assert set(verdict.tests) == {*task.fail_to_pass, *task.pass_to_pass}
