"""Teacher evidence (--teacher-model): before an expansion the shipped seed task agent tries
the parent's first failed task under the teacher's model, metered as role `teacher`; its
verdict, patch and trajectory join the meta agent's evidence."""

from __future__ import annotations

from archive import Archive
from dgm.engine.status import task_order
from dgm.suites import load_suite
from tests.engine.conftest import evidence_keeping_script, evidence_seen, evolve_ok


def test_the_teachers_attempt_is_metered_under_its_model_and_joins_the_evidence(engine_env, tmp_path, bwrap):
    tasks, _ = engine_env
    path = evidence_keeping_script(tmp_path)
    run = tmp_path / "run"
    evolve_ok(run, tasks, path, "--teacher-model", "teacher-m", "--max-expansions", "1", "--max-evals", "4")
    with Archive.for_run(run) as ar:
        expand = ar.jobs.list(kind="expand")[0]
        calls = [c for c in ar.fm_calls() if c.role == "teacher"]
        assert calls
        assert {(c.model, c.job_id) for c in calls} == {("teacher-m", expand.id)}
        child = next(n for n in ar.nodes() if n.parent_id == 1)
        teacher = evidence_seen(ar, child.id, tmp_path)["teacher"]
        failed = {e.task_id for e in ar.evaluations(1) if not e.resolved}
    suite = load_suite(f"taskdir:{tasks}").tasks
    order = task_order([t.id for t in suite], 0, {t.id: t.difficulty for t in suite})  # the run's (seed 0)
    first_failed = next(t for t in order if t in failed)
    assert teacher["model"] == "teacher-m"
    assert teacher["task_id"] == first_failed
    assert teacher["resolved"] is False
    assert teacher["trajectory"] == "teacher/trajectory.jsonl"


def test_without_a_teacher_there_is_no_teacher_section(engine_env, tmp_path, bwrap):
    tasks, script = engine_env
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--max-expansions", "1", "--max-evals", "4")
    with Archive.for_run(run) as ar:
        assert not [c for c in ar.fm_calls() if c.role == "teacher"]
