"""Job throughput: the local executor (a pool of 2 on this machine) against the Ray
executor on a local Ray cluster of a head and 2 worker nodes with one job slot each, on
the same scripted run (real bwrap sandboxes, the real gateway, the SCRIPTED upstream of
the engine tests, 3 built-in tasks). Both sides run 2 jobs at once on this machine's 2
cores, so the figure is the Ray executor's overhead, not a speed-up: a cluster gains by
adding machines.

    .venv/bin/python benchmarks/bench_executors.py [--evals 40] [--expansions 9] [--repeats 2] [--latency 0]

`--latency S` delays every model reply by S seconds, as a remote model would (jobs then
wait on the model more than on the machine).

Jobs per minute count finished jobs over the time from the first job's start to the last
job's end (set-up and the seed agent's check excluded); `wall` is the whole command. The
last line: local_jobs_per_min=X ray_jobs_per_min=Y ray_over_local=Z
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from archive import Archive  # noqa: E402
from dgm.suites.loaders.taskdir import BUILTIN_DIR  # noqa: E402
from tests.engine.conftest import SCRIPT, TASKS, evolve_cmd  # noqa: E402
from tests.executors.conftest import LocalRayCluster  # noqa: E402


def with_latency(script: dict, seconds: float) -> dict:
    if not seconds:
        return script
    rules = [{**r, "reply": {**r["reply"], "fault": "hang", "seconds": seconds}} for r in script["rules"]]
    return {**script, "rules": rules}


def one_run(root: Path, tasks: Path, script: Path, args, extra: list[str]) -> tuple[float, float, int]:
    run = Path(tempfile.mkdtemp(dir=root)) / "run"
    cmd = evolve_cmd(run, tasks, f"scripted:{script}", "--workers", "2", "--seed", "7")
    cmd += ["--max-evals", str(args.evals), "--max-expansions", str(args.expansions), *extra]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"evolve failed:\n{proc.stderr[-3000:]}")
    with Archive.for_run(run) as ar:
        first, last, done = ar.db.execute(
            "SELECT min(started_at), max(finished_at), count(*) FROM jobs WHERE state = 'done'"
        ).fetchone()
    return done / ((last - first) / 60), wall, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--evals", type=int, default=40, help="task evaluations per run")
    parser.add_argument("--expansions", type=int, default=9, help="children per run")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every model reply")
    parser.add_argument("--repeats", type=int, default=2, help="runs per executor (the median is reported)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="dgm-bench-exec-"))
    try:
        tasks = root / "tasks"
        for task in TASKS:
            shutil.copytree(BUILTIN_DIR / task, tasks / task)
        script = root / "script.json"
        script.write_text(json.dumps(with_latency(SCRIPT, args.latency)))
        cluster = LocalRayCluster(root / "nodes")
        results: dict[str, list[tuple[float, float, int]]] = {"local": [], "ray": []}
        try:
            cluster.start_head()
            for name in ("w1", "w2"):
                cluster.add_worker(name)
            for _ in range(args.repeats):  # interleaved, so drift in the machine's load hits both
                results["local"].append(one_run(root, tasks, script, args, []))
                ray_args = ["--executor", "ray", "--ray-address", cluster.address]
                results["ray"].append(one_run(root, tasks, script, args, ray_args))
        finally:
            cluster.stop()
        medians = {}
        for name, runs in results.items():
            rates = [r for r, _, _ in runs]
            medians[name] = statistics.median(rates)
            shown = ", ".join(f"{r:.1f} jobs/min ({d} jobs, wall {w:.1f}s)" for r, w, d in runs)
            print(f"{name:5}: {shown}", file=sys.stderr)
        ratio = medians["ray"] / medians["local"]
        local, ray = medians["local"], medians["ray"]
        print(f"local_jobs_per_min={local:.1f} ray_jobs_per_min={ray:.1f} ray_over_local={ratio:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
