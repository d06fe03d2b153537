"""Grading time of a resolved run: every built-in task's reference patch graded on bwrap,
`--rounds` times, the median per task and the median over tasks. Run it from two trees to
see what a change to grading costs (dgm is imported from the first entry of PYTHONPATH):

    .venv/bin/python benchmarks/bench_grading.py                          # this tree
    git worktree add /tmp/before COMMIT
    PYTHONPATH=/tmp/before .venv/bin/python benchmarks/bench_grading.py   # the tree at COMMIT

`--load N` keeps N busy-looping processes beside the gradings (at normal priority), as a
run's other sandboxes would. The last line is the figures."""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path


def _burn() -> None:
    while True:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--load", type=int, default=0, help="busy processes beside the gradings")
    parser.add_argument("--backend", default="bwrap")
    opts = parser.parse_args()
    import dgm
    from dgm.suites import Grader, load_suite
    from sandbox import get_backend

    suite = load_suite("builtin")
    burners = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(opts.load)]
    for burner in burners:
        burner.start()
    per_task, unresolved = [], []
    with tempfile.TemporaryDirectory(prefix="dgm-bench-grading-") as tmp:
        grader = Grader(get_backend(opts.backend), Path(tmp))
        for task in suite.tasks:
            grader.grade(task, task.reference_patch)  # warm: the base's export
            times = []
            for _ in range(opts.rounds):
                start = time.monotonic()
                verdict = grader.grade(task, task.reference_patch)
                times.append(time.monotonic() - start)
                if not verdict.resolved:
                    unresolved.append(task.id)
            per_task.append(statistics.median(times))
            print(f"{task.id:40} {per_task[-1]:.2f}s", file=sys.stderr, flush=True)
    for burner in burners:
        burner.kill()
    print(
        f"dgm={Path(dgm.__file__).parent} tasks={len(per_task)} rounds={opts.rounds} load={opts.load} "
        f"median_s={statistics.median(per_task):.2f} mean_s={statistics.mean(per_task):.2f} "
        f"max_s={max(per_task):.2f} unresolved={len(set(unresolved))}"
    )


if __name__ == "__main__":
    main()
