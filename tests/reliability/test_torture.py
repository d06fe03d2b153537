"""Crash torture: scripted runs on real sandboxes, killed with SIGKILL at random moments
and resumed, again and again. Nothing completed is lost or repeated, no child appears
twice, no sandbox is left running, and progress only moves forward.

DGM_TORTURE_KILLS sets the number of kills (default 12; BENCHMARKS.md reports 50);
DGM_TORTURE_REPORT, a file to append the figures to, one JSON line per recipe."""

from __future__ import annotations

import json
import os
import random
import time
from collections import Counter

import pytest

from archive import Archive
from sandbox.base import sessions_root
from tests.reliability.conftest import evolve_cmd, kill_with_its_processes, sandbox_processes, start

pytestmark = pytest.mark.minutes(6)  # see tests/conftest.py

KILLS = int(os.environ.get("DGM_TORTURE_KILLS", "12"))
KILLS_PER_RUN = 8
FLAGS = ["--workers", "2", "--max-expansions", "5", "--max-evals", "18", "--fm-backoff", "0.05"]


def snapshot_of(run) -> tuple[int, int, list]:
    with Archive.for_run(run) as ar:
        problems = ar.integrity_check()
        evals = [(e.node_id, e.benchmark, e.task_id) for e in ar.evaluations()]
        nodes = ar.nodes()
        running = [j.kind for j in ar.jobs.list(state="running")]
    assert problems == []
    assert len(evals) == len(set(evals)), "an evaluation was recorded twice"
    children = [(n.parent_id, n.origin.get("job")) for n in nodes if n.parent_id is not None]
    assert len(children) == len(set(children)), "a child appeared twice"
    return len(evals), len(nodes), running


@pytest.mark.torture
@pytest.mark.parametrize("recipe", [None, "gea", "darwinx", "rqgm"])
def test_crash_torture(bwrap, engine_env, tmp_path, recipe):
    """Under the default search and under the gea, darwinx and rqgm recipes (a third of the
    kills each), whose jobs carry groups, second parents, admission decisions, a judge and
    epoch boundaries (rqgm: epochs of 4 evaluations here, so kills land across them)."""
    tasks, script = engine_env
    wanted = KILLS if recipe is None else max(2, KILLS // 3)
    flags = [*FLAGS, *(["--recipe", recipe] if recipe else [])]
    if recipe == "rqgm":
        flags += ["--epochs", "4:tests,tests+judge:0.3"]
    rng = random.Random(2026)
    landed: Counter[str] = Counter()
    kills, runs = 0, 0
    drivers: set[int] = set()  # the runs' processes: their sandbox areas are named by them
    started = time.monotonic()
    seed = 10
    while kills < wanted:
        seed += 1
        runs += 1
        per_seed = min(KILLS_PER_RUN, wanted - kills)
        run = tmp_path / f"run-{seed}"
        cmd = evolve_cmd(run, tasks, f"scripted:{script}", *flags, "--seed", str(seed))
        progress = (0, 0)
        seed_kills = 0
        while True:
            proc = start(cmd)
            drivers.add(proc.pid)
            if seed_kills < per_seed:
                time.sleep(rng.uniform(0.5, 4.0))
                if proc.poll() is None:
                    busy = []
                    if (run / "archive.db").exists():
                        busy = snapshot_of(run)[2]
                    tree = kill_with_its_processes(proc)
                    seed_kills += 1
                    landed[
                        "during an expansion (self-edit)"
                        if "expand" in busy
                        else "during an evaluation"
                        if "evaluate" in busy
                        else "between jobs or at start"
                    ] += 1
                    time.sleep(0.3)
                    assert sandbox_processes(among=tree) == [], "a sandbox outlived its killed driver"
                    if not (run / "archive.db").exists():  # killed before it made its archive
                        continue
                    evals, nodes, _ = snapshot_of(run)
                    assert (evals, nodes) >= progress, "progress went backwards"
                    progress = (evals, nodes)
                    continue
            out, _ = proc.communicate(timeout=600)
            assert proc.returncode == 0, out[-3000:]
            break
        kills += seed_kills
        evals, nodes, running = snapshot_of(run)
        assert running == [], (evals, nodes)
        assert nodes == 6, (evals, nodes)
        assert evals == 18, (evals, nodes)
        with Archive.for_run(run) as ar:
            assert ar.jobs.counts()["queued"] == 0
            epochs = [(e.id, e.utility, e.from_evaluation) for e in ar.epochs()]
        if recipe == "rqgm":  # every boundary recorded once, in order, whatever the kills hit
            later = [(i, "tests+judge:0.3", 4 * (i - 1)) for i in range(2, 6)]
            assert epochs == [(1, "tests", 0), *later], epochs
    ours = {str(pid) for pid in drivers}
    leftovers = [p.name for p in sessions_root().iterdir() if p.name.split("-")[0] in ours]
    assert leftovers == [], f"sandbox areas left behind: {leftovers}"
    figures = {
        "recipe": recipe,
        "kills": kills,
        "runs": runs,
        "landed": dict(landed),
        "seconds": round(time.monotonic() - started),
    }
    print(json.dumps(figures))
    if os.environ.get("DGM_TORTURE_REPORT"):
        with open(os.environ["DGM_TORTURE_REPORT"], "a") as fh:  # one JSON line per recipe
            fh.write(json.dumps(figures) + "\n")
    assert kills >= wanted
