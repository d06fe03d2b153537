"""Archive storage and speed on an agent-sized workload.

Builds a 50-file, ~200 KB agent, then 2,000 children each changing one file of its
parent (a lineage of self-edits), and measures the archive growth per child, the time
to add a child and to materialize a snapshot; then the time to compute clade aggregates
for every node of a random 10,000-node tree.

    .venv/bin/python benchmarks/bench_archive.py [--children N] [--synchronous FULL|NORMAL]

The last line is: bytes_per_child=N add_ms=X materialize_ms=Y clade_all_ms_10k=Z
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from archive import Archive

WORDS = (
    "self", "agent", "task", "repo", "patch", "test", "model", "tool", "prompt", "message",
    "result", "score", "node", "parent", "child", "path", "file", "line", "edit", "apply",
    "run", "check", "value", "index", "count", "items", "config", "state", "error", "retry",
)  # fmt: skip


def source_line(rng: random.Random) -> str:
    kind = rng.random()
    a, b, c = rng.choice(WORDS), rng.choice(WORDS), rng.choice(WORDS)
    if kind < 0.3:
        return f"    {a}_{b} = {c}.{rng.choice(WORDS)}({a}, {rng.randint(0, 999)})\n"
    if kind < 0.5:
        return f"    if {a}.{b} is not None and {c} > {rng.randint(0, 99)}:\n"
    if kind < 0.65:
        return f"        return {a}_{b}({c}, key={rng.choice(WORDS)!r})\n"
    if kind < 0.8:
        return f"    # {a} {b} {c}: {' '.join(rng.choice(WORDS) for _ in range(6))}\n"
    if kind < 0.9:
        return f"\ndef {a}_{b}_{rng.randint(0, 9999)}({c}, {rng.choice(WORDS)}=None):\n"
    return f"    for {a} in {b}.{c}():\n"


def make_file(rng: random.Random, target_bytes: int) -> list[str]:
    lines: list[str] = []
    while sum(map(len, lines)) < target_bytes:
        lines.append(source_line(rng))
    return lines


def bench_lineage(work: Path, n_children: int, synchronous: str, rng: random.Random) -> dict[str, float]:
    agent = work / "agent"
    subdirs = ["core", "tools", "meta", "prompts", "util"]
    files = {f"seed_agent/{subdirs[i % 5]}/m{i:02d}.py": make_file(rng, 4000) for i in range(50)}
    for rel, lines in files.items():
        (agent / rel).parent.mkdir(parents=True, exist_ok=True)
        (agent / rel).write_text("".join(lines))
    total = sum((agent / rel).stat().st_size for rel in files)
    print(f"agent: {len(files)} files, {total} bytes", file=sys.stderr)

    db_path = work / "archive.db"
    with Archive(db_path, synchronous=synchronous) as ar:
        parent = ar.add_child(None, agent, status="valid").id
        size_base = _db_bytes(ar)
        add_times: list[float] = []
        for i in range(n_children):
            rel = rng.choice(list(files))
            lines = files[rel]
            lines[rng.randrange(len(lines))] = source_line(rng)  # one self-edit
            (agent / rel).write_text("".join(lines))
            t0 = time.perf_counter()
            parent = ar.add_child(parent, agent, status="valid", origin={"edit": rel, "i": i}).id
            add_times.append(time.perf_counter() - t0)
            if (i + 1) % 500 == 0:
                print(f"  {i + 1}/{n_children} children", file=sys.stderr)
        size_after = _db_bytes(ar)
        nodes = ar.nodes()
        mat_times: list[float] = []
        for k, node in enumerate(rng.sample(nodes, min(100, len(nodes)))):
            dest = work / f"out{k}"
            t0 = time.perf_counter()
            ar.materialize(node.snapshot, dest)
            mat_times.append(time.perf_counter() - t0)
            shutil.rmtree(dest)
    add_ms = [t * 1000 for t in add_times]
    print(
        f"add_ms p50={statistics.median(add_ms):.2f} p95={statistics.quantiles(add_ms, n=20)[18]:.2f}; "
        f"materialize_ms p50={statistics.median(mat_times) * 1000:.2f}",
        file=sys.stderr,
    )
    return {
        "bytes_per_child": (size_after - size_base) / n_children,
        "add_ms": statistics.fmean(add_ms),
        "materialize_ms": statistics.fmean(mat_times) * 1000,
    }


def _db_bytes(ar: Archive) -> int:
    ar.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return ar.path.stat().st_size


def bench_clade(work: Path, n_nodes: int, rng: random.Random) -> float:
    with Archive(work / "clade.db", synchronous="OFF") as ar:
        (work / "tiny").mkdir()
        snap = ar.add_snapshot(work / "tiny")
        snap_id = ar.db.execute("SELECT id FROM snapshots WHERE digest = ?", [snap]).fetchone()[0]
        with ar.atomic():  # bulk set-up in one transaction; only the query below is timed
            for node_id in range(1, n_nodes + 1):
                parent = rng.randint(1, node_id - 1) if node_id > 1 else None
                ar.db.execute(
                    "INSERT INTO nodes (id, parent_id, snapshot_id, status, created_at) VALUES (?, ?, ?, 'valid', 0)",
                    [node_id, parent, snap_id],
                )
                for t in range(rng.randint(0, 8)):
                    ar.db.execute(
                        "INSERT INTO evaluations (node_id, benchmark, task_id, attempt, resolved, created_at)"
                        " VALUES (?, 'dev', ?, 0, ?, 0)",
                        [node_id, f"t{t}", int(rng.random() < 0.3)],
                    )
        n_evals = ar.stats().evaluations
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            stats = ar.clade_stats()
            times.append(time.perf_counter() - t0)
        assert len(stats) == n_nodes
        assert stats[1].n == n_evals
    runs_ms = [round(t * 1000, 1) for t in times]
    print(f"clade: {n_nodes} nodes, {n_evals} evaluations, runs_ms={runs_ms}", file=sys.stderr)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--children", type=int, default=2000, help="children in the lineage (default 2000)")
    parser.add_argument("--clade-nodes", type=int, default=10_000, help="nodes in the clade tree (default 10000)")
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"], help="SQLite synchronous mode")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="dgm-bench-"))
    try:
        lineage = bench_lineage(work, args.children, args.synchronous, rng)
        clade_ms = bench_clade(work, args.clade_nodes, rng)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"bytes_per_child={lineage['bytes_per_child']:.0f} add_ms={lineage['add_ms']:.2f} "
        f"materialize_ms={lineage['materialize_ms']:.2f} clade_all_ms_10k={clade_ms:.1f}"
    )


if __name__ == "__main__":
    main()
