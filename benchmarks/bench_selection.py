"""Decision latency at 1k, 10k and 100k nodes.

A random tree of N nodes with ~3 evaluations each is written to an archive. Measured:
building the view from the archive (once, at the start of a run), and one decision as the
engine makes it, each after one new result: the view cache's snapshot plus the policy's
next action (hgm with cmp_thompson; dgm with score_child_prop; hgm with lineage, whose
first decision filters every node once and is reported apart as its warm-up). Target:
<= 50 ms per decision at 100k nodes.

    .venv/bin/python benchmarks/bench_selection.py [--sizes 1000,10000,100000]

The last line: decision_ms_<N>=X (hgm) dgm_decision_ms_<N>=.. lineage_decision_ms_<N>=.. view_build_s_<N>=Y
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from archive import Archive
from dgm.engine.policies import Allowance, InFlight
from dgm.engine.scheduler import make_policy
from dgm.engine.view import ViewCache

TASKS = tuple(f"t{i:02d}" for i in range(40))


def populate(path: Path, n: int, rng: random.Random) -> None:
    with Archive(path, synchronous="OFF") as ar:
        folder = Path(tempfile.mkdtemp())
        snap = ar.add_snapshot(folder)
        snap_id = ar.db.execute("SELECT id FROM snapshots WHERE digest = ?", [snap]).fetchone()[0]
        with ar.atomic():
            ar.db.conn.executemany(
                "INSERT INTO nodes (id, parent_id, snapshot_id, status, origin, created_at)"
                " VALUES (?, ?, ?, ?, '{}', 0)",
                [
                    (
                        i,
                        rng.randint(1, i - 1) if i > 1 else None,
                        snap_id,
                        "valid" if rng.random() < 0.8 or i == 1 else "invalid",
                    )
                    for i in range(1, n + 1)
                ],
            )
            ar.db.conn.executemany(
                "INSERT INTO evaluations (node_id, benchmark, task_id, attempt, resolved, created_at) "
                "VALUES (?, 'bench', ?, 0, ?, 0)",
                [
                    (i, t, int(rng.random() < 0.3))
                    for i in range(1, n + 1)
                    for t in (TASKS if i == 1 else rng.sample(TASKS, 3))  # the seed's baseline is complete
                ],
            )


def measure(n: int) -> dict[str, float]:
    rng = random.Random(n)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "a.db"
        populate(path, n, rng)
        with Archive(path) as ar:
            t0 = time.perf_counter()
            cache = ViewCache.load(ar, "bench", TASKS)
            build_s = time.perf_counter() - t0
    out = {"view_build_s": build_s}
    for label, mode, selector in (
        ("hgm", "hgm", "cmp_thompson"),
        ("dgm", "dgm", "score_child_prop"),
        ("lineage", "hgm", "lineage"),
    ):
        policy = make_policy(mode, selector, stages=(10, 25))
        t0 = time.perf_counter()
        policy.next(cache.view(), InFlight(), Allowance(), random.Random(0))
        out[f"{label}_first_ms"] = (time.perf_counter() - t0) * 1000
        times = []
        for d in range(20):
            node = rng.randint(1, n)
            open_tasks = [t for t in TASKS if t not in cache.nodes[node].evaluated]
            if open_tasks:
                cache.add_result(node, open_tasks[0], rng.random() < 0.3)
            t0 = time.perf_counter()
            view = cache.view()
            policy.next(view, InFlight(), Allowance(), random.Random(d))
            times.append(time.perf_counter() - t0)
        out[f"{label}_decision_ms"] = statistics.median(times) * 1000
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000", help="node counts, comma-separated")
    args = parser.parse_args()
    parts = []
    for n in (int(s) for s in args.sizes.split(",")):
        m = measure(n)
        print(
            f"{n} nodes: view build {m['view_build_s']:.2f}s; decision hgm {m['hgm_decision_ms']:.1f} ms, "
            f"dgm {m['dgm_decision_ms']:.1f} ms, lineage {m['lineage_decision_ms']:.1f} ms "
            f"(its first {m['lineage_first_ms']:.0f} ms)",
            file=sys.stderr,
        )
        label = f"{n // 1000}k"
        parts.append(
            f"decision_ms_{label}={m['hgm_decision_ms']:.1f} dgm_decision_ms_{label}={m['dgm_decision_ms']:.1f}"
            f" lineage_decision_ms_{label}={m['lineage_decision_ms']:.1f}"
            f" view_build_s_{label}={m['view_build_s']:.2f}"
        )
    print(" ".join(parts))


if __name__ == "__main__":
    main()
