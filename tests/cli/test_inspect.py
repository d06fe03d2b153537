"""tree, show, diff, best, export, eval and report on an archive from a scripted run."""

from __future__ import annotations

import json
import shutil
import tarfile

import pytest
from click.testing import CliRunner

from archive import Archive
from dgm import agent_exec
from dgm.cli import main
from dgm.gateway import Gateway
from dgm.gateway.scripted import ScriptedUpstream
from tests.engine.conftest import SCRIPT
from tests.helpers import write_tree


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_tree_as_text(scripted_run):
    run, _ = scripted_run
    text = cli("tree", "--run", run)
    assert text.exit_code == 0
    assert text.output.splitlines()[0].startswith("1  1/3 [")
    assert "├── 2" in text.output


def test_tree_as_dot(scripted_run):
    run, _ = scripted_run
    dot = cli("tree", "--run", run, "--format", "dot").output
    assert dot.startswith("digraph dgm {")
    assert "n1 -> n2" in dot


def test_tree_as_svg(scripted_run):
    run, _ = scripted_run
    svg = cli("tree", "--run", run, "--format", "svg").output
    assert svg.startswith("<svg")
    assert svg.count("<rect") == 5


def test_show_gives_parent_diagnosis_and_score(scripted_run):
    run, _ = scripted_run
    show = cli("show", "--run", run, "2")
    assert show.exit_code == 0
    assert "parent       1" in show.output
    assert "the agent gave up" in show.output
    assert "1/3" in show.output


def test_show_and_tree_print_agent_text_without_its_control_characters(tmp_path):
    notes = "# notes\ntried X \x1b[2J\x1b]0;pwned\x07 then Y\n"
    seed = write_tree(tmp_path / "seed", {"seed_agent/memory/notes.md": notes})
    with Archive.for_run(tmp_path / "run", create=True) as ar:
        node = ar.add_child(None, seed, status="valid")
        child = ar.add_child(node.id, write_tree(tmp_path / "child", {"seed_agent/x.py": "y = 2\n"}))
        ar.set_status(child.id, "invalid", "check failed (exit 1): \x1b[31mFAILED\x1b[0m")  # the check's stderr
    show = cli("show", "--run", tmp_path / "run", "1")
    assert show.exit_code == 0
    assert "\x1b" not in show.output
    assert "\x07" not in show.output
    assert "# notes\ntried X ?[2J?]0;pwned? then Y" in show.output  # the lines kept, as text
    for shown in (cli("show", "--run", tmp_path / "run", "2"), cli("tree", "--run", tmp_path / "run")):
        assert shown.exit_code == 0
        assert "?[31mFAILED?[0m" in shown.output
        assert "\x1b" not in shown.output


def test_diff_shows_the_meta_agents_edit(scripted_run):
    run, _ = scripted_run
    diff = cli("diff", "--run", run, "1", "2")
    assert "+Read the code the issue is about" in diff.output


def test_best_by_lcb_names_a_node_and_its_score(scripted_run):
    run, _ = scripted_run
    best = cli("best", "--run", run, "--rule", "lcb")
    assert best.exit_code == 0
    assert best.output.startswith("node ")
    assert "1/3" in best.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "--run", "{run}", "99"], "no node '99'"),
        (["diff", "--run", "{run}", "1", "nope"], "no node 'nope'"),
        (["show", "--run", "{missing}", "1"], "no run directory"),
        (["tree", "--run", "{empty}"], "holds no agents yet"),
        (["best", "--run", "{empty}"], "holds no agents yet"),
        (["export", "--run", "{run}", "1", "--out", "{run}"], "already exists"),
        (["eval", "--run", "{run}", "--benchmark", "builtin:test"], "give either NODE or --agent"),
        (["eval", "--run", "{run}", "1", "--benchmark", "nosuch:x"], "unknown suite source"),
    ],
)
def test_error_cases_are_clear(scripted_run, tmp_path, args, message):
    run, _ = scripted_run
    empty = tmp_path / "empty"
    Archive.for_run(empty, create=True).close()
    values = {"run": run, "missing": tmp_path / "missing", "empty": empty}
    result = cli(*[a.format(**values) for a in args])
    assert result.exit_code != 0, result.output
    assert message in result.output, result.output
    assert "Traceback" not in result.output


def test_export_as_a_directory_with_a_readme_of_its_lineage(scripted_run, tmp_path):
    run, _ = scripted_run
    out = tmp_path / "agent"
    assert cli("export", "--run", run, "best", "--out", out).exit_code == 0
    readme = (out / "README.md").read_text()
    assert "## Lineage" in readme
    assert "resolved" in readme
    assert '"mode": "hgm"' in readme


def test_export_as_a_tarball(scripted_run, tmp_path):
    run, _ = scripted_run
    assert cli("export", "--run", run, "2", "--out", tmp_path / "a.tar.gz", "--format", "tar").exit_code == 0
    with tarfile.open(tmp_path / "a.tar.gz") as tar:
        assert "dgm-node-2/seed_agent/__main__.py" in tar.getnames()


def test_export_as_a_patch_series(scripted_run, tmp_path):
    run, _ = scripted_run
    series = tmp_path / "series"
    assert cli("export", "--run", run, "2", "--out", series, "--format", "patches").exit_code == 0
    assert (series / "0001-node-2.patch").read_text().startswith("diff --git")


@pytest.fixture
def exported_alone(scripted_run, tmp_path):
    """The best agent exported, then copied on its own (nothing of the run beside it)."""
    run, _ = scripted_run
    tmp_path.chmod(0o755)
    out = tmp_path / "agent"
    assert cli("export", "--run", run, "best", "--out", out).exit_code == 0
    shutil.copytree(out, tmp_path / "alone")
    return tmp_path / "alone"


def test_an_exported_agent_alone_passes_its_check(exported_alone, bwrap):
    assert agent_exec.check(bwrap, exported_alone).exit_code == 0


def test_an_exported_agent_alone_solves_through_a_gateway(exported_alone, bwrap, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "f.py").write_text("x = 1\n")
    with Gateway(ScriptedUpstream(SCRIPT)) as gateway:
        access = agent_exec.Access(gateway.socket_path, gateway.issue_token())
        task = {"id": "t", "statement": "nothing to do"}
        run_result = agent_exec.solve(agent_exec.Host(bwrap, access), exported_alone, task, repo, tmp_path / "job")
    assert run_result.result.exit_code == 0, run_result.result.stderr
    assert json.loads((run_result.out / "solve.json").read_text())["status"] == "done"


@pytest.fixture(scope="module")
def transfer(scripted_run, tmp_path_factory):
    """`dgm eval` of the best agent on another benchmark and model, run once on a copy of the
    run: the copy, the eval's arguments, its predictions file and its output."""
    run, script = scripted_run
    root = tmp_path_factory.mktemp("transfer")
    copy = root / "run"
    shutil.copytree(run, copy)
    args = ("eval", "--run", copy, "best", "--benchmark", "builtin:test", "--model", "other-model")
    args += ("--fm", f"scripted:{script}")
    preds = root / "preds.jsonl"
    result = cli(*args, "--predictions", preds)
    assert result.exit_code == 0, result.output
    return copy, args, preds, result.output


class TestTransferEval:
    """A transfer eval is recorded, shown and resumable."""

    def test_it_prints_the_score_on_the_new_benchmark(self, transfer):
        *_, out = transfer
        assert "on builtin:test@other-model: 0/12 resolved" in out

    def test_its_model_calls_and_evaluations_are_recorded(self, transfer):
        copy, *_ = transfer
        with Archive.for_run(copy) as ar:
            calls = [c for c in ar.fm_calls() if c.model == "other-model"]
            assert calls
            assert {e.benchmark for e in ar.evaluations()} >= {"builtin:test@other-model"}

    def test_it_writes_one_prediction_per_task(self, transfer):
        _, _, preds, _ = transfer
        assert len(preds.read_text().splitlines()) == 12

    def test_show_names_it(self, transfer):
        copy, *_ = transfer
        assert "builtin:test@other-model" in cli("show", "--run", copy, "best").output

    def test_the_report_names_it(self, transfer, tmp_path):
        copy, *_ = transfer
        report = tmp_path / "report.html"
        assert cli("report", "--run", copy, "--out", report).exit_code == 0
        assert "builtin:test@other-model" in report.read_text()

    def test_only_what_runs_is_shown_running(self, transfer):
        """Each task's job is claimed when a worker takes it up (2 workers): before, all 12
        were claimed at the start, and `dgm status` showed 12 running for the whole eval."""
        copy, *_ = transfer
        with Archive.for_run(copy) as ar:
            spans = ar.db.execute("SELECT started_at, finished_at FROM jobs WHERE kind = 'transfer'").fetchall()
        assert len(spans) == 12
        assert all(s is not None and f is not None for s, f in spans)
        at_once = max(sum(s <= start < f for s, f in spans) for start, _ in spans)
        assert at_once <= 2, spans

    def test_run_again_it_resumes_and_redoes_nothing(self, transfer):
        _, args, _, _ = transfer
        again = cli(*args)
        assert "0/12 resolved (12 tasks were recorded before)" in again.output


def test_an_eval_heartbeats_its_jobs_and_fails_those_a_killed_eval_left_running(scripted_run, tmp_path, monkeypatch):
    """A killed `dgm eval` leaves its jobs running; the next eval marks them failed once
    they have not been heartbeated for a while, and leaves a live eval's jobs alone."""
    from dgm.inspect import transfer

    run, script = scripted_run
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    with Archive.for_run(copy) as ar:
        left, live = (ar.jobs.enqueue("transfer", {"task": t}) for t in ("left", "live"))
        for job in (left, live):
            ar.jobs.claim("transfer", job_id=job.id)
        with ar.atomic():
            ar.db.execute("UPDATE jobs SET heartbeat_at = heartbeat_at - 1000 WHERE id = ?", [left.id])
    monkeypatch.setattr(transfer, "HEARTBEAT_S", 0.05)
    result = cli(
        "eval", "--run", copy, "best", "--benchmark", f"taskdir:{run.parent / 'tasks'}", "--fm", f"scripted:{script}"
    )
    assert result.exit_code == 0, result.output
    with Archive.for_run(copy) as ar:
        assert ar.jobs.get(left.id).state == "failed"
        assert "stale" in ar.jobs.get(left.id).error
        assert ar.jobs.get(live.id).state == "running"
        spans = ar.db.execute(
            "SELECT started_at, heartbeat_at, finished_at FROM jobs WHERE kind = 'transfer' AND state = 'done'"
        ).fetchall()
    assert spans
    for started, beat, finished in spans:  # heartbeated while it ran, up to its end
        assert started < beat <= finished, (started, beat, finished)
        assert finished - beat < 1.0, (started, beat, finished)


def test_eval_of_an_exported_agent_directory(scripted_run, tmp_path):
    run, script = scripted_run
    tmp_path.chmod(0o755)
    out = tmp_path / "agent"
    cli("export", "--run", run, "2", "--out", out)
    evals = tmp_path / "evals"
    result = cli(
        "eval",
        "--run",
        evals,
        "--agent",
        out,
        "--benchmark",
        f"taskdir:{run.parent / 'tasks'}",
        "--fm",
        f"scripted:{script}",
    )
    assert result.exit_code == 0, result.output
    assert "1/3 resolved" in result.output
    with Archive.for_run(evals) as ar:
        assert ar.nodes()[0].origin["imported"] == {"path": str(out.resolve())}
