"""Whole runs: the real archive, real bwrap sandboxes, the real gateway and the SCRIPTED
upstream (the test double), in both modes; and a run killed with SIGKILL and resumed."""

from __future__ import annotations

import json
import signal
import subprocess
import time

from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from tests.engine.conftest import evolve_args, evolve_cmd


def evolve(run, tasks, script, *extra, workers=2):
    args = evolve_args(
        run,
        tasks,
        f"scripted:{script}",
        "--backend",
        "bwrap",
        "--workers",
        str(workers),
        "--seed",
        "7",
        *extra,
    )
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result.output


def archive_state(run):
    with Archive.for_run(run) as ar:
        assert ar.integrity_check() == []
        nodes = [(n.id, n.parent_id, n.snapshot, n.status) for n in ar.nodes()]
        evals = sorted((e.node_id, e.task_id, e.resolved, e.attempt) for e in ar.evaluations())
        return nodes, evals


def test_hgm_run(bwrap, engine_env, tmp_path):
    tasks, script = engine_env
    run = tmp_path / "run"
    out = evolve(run, tasks, script, "--mode", "hgm", "--max-expansions", "6", "--max-evals", "21")
    nodes, evals = archive_state(run)
    assert len(nodes) == 7 and len(evals) == 21
    assert len(set((n, t) for n, t, _, _ in evals)) == len(evals)  # no (node, task) twice
    assert {s for *_, s in nodes} == {"valid"}
    slug = [r for n, t, r, _ in evals if t == "text-slug-separators"]
    assert all(slug) and not any(r for n, t, r, _ in evals if t != "text-slug-separators")
    assert "best agent   node" in out
    check = CliRunner().invoke(main, ["archive", "check", "--run", str(run)])
    assert check.exit_code == 0, check.output
    status = json.loads(CliRunner().invoke(main, ["status", "--run", str(run), "--json"]).output)
    assert status["expansions"] == 6 and status["evaluations"] == 21 and status["fm_calls"] > 0
    assert status["best"]["resolved"] == 1 and status["best"]["n"] == 3
    with Archive.for_run(run) as ar:
        child = ar.nodes()[1]
        assert "Read the code the issue is about" in ar.diff(ar.nodes()[0].snapshot, child.snapshot)
        assert child.origin["summary"] == "the agent gave up without reading the code"
        assert all(c.job_id is not None for c in ar.fm_calls())


def test_dgm_run(bwrap, engine_env, tmp_path):
    tasks, script = engine_env
    run = tmp_path / "run"
    evolve(
        run,
        tasks,
        script,
        "--mode",
        "dgm",
        "--children",
        "3",
        "--stages",
        "2",
        "--threshold",
        "0.3",
        "--max-expansions",
        "6",
    )
    nodes, evals = archive_state(run)
    assert len(nodes) == 7
    with Archive.for_run(run) as ar:
        generations = [n.origin.get("generation") for n in ar.nodes()]
    assert generations == [0, 1, 1, 1, 2, 2, 2]
    per_node = {}
    for n, t, _, _ in evals:
        per_node.setdefault(n, set()).add(t)
    # staged: every node saw the first stage (2 tasks); 1/2 resolved passes 0.3, and at the top: the full set
    assert all(len(tasks_seen) == 3 for tasks_seen in per_node.values()), per_node
    assert set(per_node) == {n for n, *_ in nodes}


def test_killed_and_resumed_run_equals_an_uninterrupted_one(bwrap, engine_env, tmp_path):
    tasks, script = engine_env
    flags = ["--mode", "hgm", "--max-expansions", "4", "--max-evals", "15"]
    straight = tmp_path / "straight"
    evolve(straight, tasks, script, *flags, workers=1)
    killed = tmp_path / "killed"
    cmd = evolve_cmd(
        killed,
        tasks,
        f"scripted:{script}",
        "--workers",
        "1",
        "--seed",
        "7",
        *flags,
    )
    kills = 0
    for threshold in (4, 9):  # kill twice: mid-way through the baseline and after some expansions
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if (killed / "archive.db").exists():
                with Archive.for_run(killed) as ar:
                    if len(ar.evaluations()) + len(ar.nodes()) >= threshold:
                        break
            time.sleep(0.2)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
    assert kills >= 1
    evolve(killed, tasks, script, *flags, workers=1)
    assert archive_state(killed) == archive_state(straight)
    with Archive.for_run(killed) as ar:
        assert ar.jobs.counts()["running"] == 0 and ar.jobs.counts()["queued"] == 0
