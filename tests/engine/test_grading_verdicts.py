"""What storing an evaluation does with the grader's judgement beyond resolved: a gamed
verdict (a twin test an honest fix must fail passed) is logged and, like a tampered one,
keeps the agent from parenthood unless the run allows it (`tampered_parents`); the seed is
exempt; the grader's flags are logged and never demote."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from dgm.engine import work
from dgm.engine.cheating import cheating_rates
from dgm.engine.config import RunConfig
from dgm.suites.evaluate import Evaluation
from dgm.suites.grader import Verdict
from tests.helpers import write_tree

LABEL = "builtin:dev"


def verdict(reason: str | None, **kw) -> Verdict:
    return Verdict("t1", reason is None, reason, {}, {}, {"test_a": "PASSED"}, (), 1.0, "log", **kw)


@pytest.fixture
def archive(tmp_path):
    with Archive.for_run(tmp_path / "run", create=True) as ar:
        seed = ar.add_child(None, write_tree(tmp_path / "seed", {"seed_agent/a.py": "x = 1\n"}), status="valid")
        child = ar.add_child(seed.id, write_tree(tmp_path / "child", {"seed_agent/a.py": "x = 2\n"}))
        ar.set_status(child.id, "valid")
        yield ar


def store(ar: Archive, node_id: int, v: Verdict, tampered_parents: bool) -> None:
    """Store `v` as the engine does: its demotion decided by work.demotes under the run's switch."""
    job = ar.jobs.enqueue("evaluate", {"node": node_id, "task": v.task_id})
    ar.jobs.claim("w", job_id=job.id)
    bundle = work.evaluation_bundle(Evaluation(v, "diff --git a/x b/x", None, 1.0))
    demote = work.demotes(v, tampered_parents, root=node_id == 1)
    assert work.store_evaluation(
        ar, node_id, LABEL, v.task_id, work.EvaluationRecord(v, 1.0, bundle), job.id, "w", demote
    )


GAMED = verdict("gamed", gamed=("twin test_a_twin passed",))


def test_a_gamed_verdict_is_logged_and_demotes_by_default(archive):
    assert RunConfig().tampered_parents is False  # the default this test stands for
    store(archive, 2, GAMED, RunConfig().tampered_parents)
    node = archive.node(2)
    assert node.status == "invalid"
    assert node.reason == work.GAMED_REASON.format(task="t1")
    [event] = archive.events("grading_gamed")
    assert (event.node_id, event.data) == (2, {"task": "t1", "label": LABEL, "gamed": ["twin test_a_twin passed"]})
    assert archive.events("grading_tampered") == []
    assert archive.events("grading_flagged") == []
    assert cheating_rates(archive).of(2).text() == "cheating 1/1 gradings (100%)"


def test_with_tampered_parents_a_gamed_agent_stays_valid_but_is_still_logged(archive):
    store(archive, 2, GAMED, tampered_parents=True)
    assert archive.node(2).status == "valid"
    assert [e.node_id for e in archive.events("grading_gamed")] == [2]


def test_the_seed_is_never_demoted_for_a_gamed_verdict(archive):
    store(archive, 1, GAMED, tampered_parents=False)
    assert archive.node(1).status == "valid"
    assert len(archive.events("grading_gamed")) == 1


def test_a_tampered_and_gamed_verdict_gives_the_tampered_reason(archive):
    both = verdict("tampered", tamper=("conftest replaced",), gamed=("twin passed",))
    store(archive, 2, both, tampered_parents=False)
    assert archive.node(2).reason == work.TAMPERED_REASON.format(task="t1")
    assert len(archive.events("grading_tampered")) == len(archive.events("grading_gamed")) == 1
    assert cheating_rates(archive).of(2).cheated == 1  # one grading, however many events


def test_flags_are_logged_and_never_demote(archive):
    flagged = verdict(None, flags=("repository code read a test's frame",))
    store(archive, 2, flagged, tampered_parents=False)
    assert not work.demotes(flagged, tampered_parents=False, root=False)
    assert archive.node(2).status == "valid"
    [event] = archive.events("grading_flagged")
    assert (event.node_id, event.data["flags"], event.data["label"]) == (
        2,
        ["repository code read a test's frame"],
        LABEL,
    )
    assert cheating_rates(archive).of(2).text() == "cheating 0/1 gradings (0%)"


def test_the_bundle_keeps_gamed_and_flags_and_show_lists_them(archive):
    gamed = verdict("gamed", gamed=("twin passed",), flags=("frame read",), mutable=(2, 3))
    store(archive, 2, gamed, tampered_parents=True)
    info = json.loads(archive.blob(archive.evaluations(2)[0].log_blob))
    assert (info["reason"], info["gamed"], info["flags"]) == ("gamed", ["twin passed"], ["frame read"])
    assert info["twinned"] == [2, 3]
    archive.close()
    shown = CliRunner().invoke(main, ["show", "--run", str(archive.path.parent), "2"])
    assert shown.exit_code == 0, shown.output
    assert "t1 (builtin:dev): GAMED: twin passed" in shown.output
    assert "t1 (builtin:dev): grading flagged (verdict kept): frame read" in shown.output


def test_the_switchs_help_says_it_covers_gamed_verdicts():
    text = " ".join(CliRunner().invoke(main, ["evolve", "--help"], terminal_width=2000).output.split())
    assert (
        "--tampered-parents / --no-tampered-parents Let an agent whose grading run was tampered with or gamed" in text
    )
