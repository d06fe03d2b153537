"""Concurrent writers lose nothing; a writer killed mid-transaction leaves all or nothing."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from archive import Archive
from tests.helpers import tree_listing, write_tree

WRITER = textwrap.dedent(
    """
    import sys, pathlib
    from archive import Archive
    db, tag, n, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), pathlib.Path(sys.argv[4])
    with Archive(db, busy_timeout_s=60) as ar:
        parent = None
        for i in range(n):
            d = work / f"{tag}-{i}"
            (d / "pkg").mkdir(parents=True)
            (d / "pkg" / "common.py").write_text("shared = True\\n")
            (d / "pkg" / "own.py").write_text(f"who = {tag!r}, {i}\\n")
            node = ar.add_child(parent, d, status="valid", origin={"tag": tag, "i": i})
            ar.add_evaluation(node.id, "dev", "t0", i % 2 == 0)
            ar.jobs.enqueue("evaluate", {"tag": tag, "i": i})
            parent = node.id
    """
)


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    db = tmp_path / "archive.db"
    Archive(db).close()  # create and migrate first, as the engine does
    n = 150
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(db), tag, str(n), str(tmp_path / "work")])
        for tag in ("A", "B")
    ]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    with Archive(db) as ar:
        nodes = ar.nodes()
        assert len(nodes) == 2 * n
        seen = sorted((node.origin["tag"], node.origin["i"]) for node in nodes)
        assert seen == sorted((t, i) for t in "AB" for i in range(n))
        assert len(ar.evaluations()) == 2 * n
        assert len(ar.jobs.list()) == 2 * n
        # Each writer built one chain: every node's parent carries the same tag.
        by_id = {node.id: node for node in nodes}
        for node in nodes:
            if node.parent_id is not None:
                assert by_id[node.parent_id].origin["tag"] == node.origin["tag"]
        assert ar.integrity_check() == []


KILLER = textwrap.dedent(
    """
    import os, signal, sys, pathlib
    from archive import Archive
    db, src, kill_after = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3])
    ar = Archive(db)
    calls = 0
    def progress():
        global calls
        calls += 1
        if calls >= kill_after:
            os.kill(os.getpid(), signal.SIGKILL)
        return 0
    # Every SQLite step from here on belongs to the add_child transaction below.
    ar.db.conn.set_progress_handler(progress, 50)
    ar.add_child(1, src, status="pending", origin={"killed": True})
    ar.db.conn.set_progress_handler(None, 0)
    print(f"ticks={calls}")
    """
)


def big_tree(root: Path) -> Path:
    files: dict[str, str | None] = {"empty": None}
    for i in range(60):
        for j in range(5):
            files[f"mod{i:03d}/file{j}.py"] = f"# module {i} file {j}\n" + "x = 1\n" * (i + j)
    return write_tree(root, files)


def setup_kill_case(tmp_path: Path) -> tuple[Path, Path]:
    db = tmp_path / "archive.db"
    with Archive(db) as ar:
        ar.add_child(None, write_tree(tmp_path / "seed", {"agent.py": "pass\n"}), status="valid")
    return db, big_tree(tmp_path / "child")


def run_killer(db: Path, src: Path, kill_after: int) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", KILLER, str(db), str(src), str(kill_after)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def write_length(tmp_path_factory) -> int:
    """How many progress-handler ticks the whole add_child transaction takes."""
    db, src = setup_kill_case(tmp_path_factory.mktemp("calibrate"))
    proc = run_killer(db, src, 10**9)
    assert proc.returncode == 0, proc.stderr
    ticks = int(proc.stdout.split("ticks=")[1])
    assert ticks > 100, "the write is too short to be killed at distinct points"
    return ticks


@pytest.mark.parametrize("fraction", [0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99])
def test_sigkill_mid_write_leaves_nothing(tmp_path, write_length, fraction):
    db, src = setup_kill_case(tmp_path)
    with Archive(db) as ar:
        before = ar.stats()
    proc = run_killer(db, src, max(1, int(write_length * fraction)))
    assert proc.returncode == -signal.SIGKILL, proc.stdout + proc.stderr
    with Archive(db) as ar:
        assert ar.integrity_check() == []
        after = ar.stats()
        assert len(ar.nodes()) == 1
        assert (after.snapshots, after.blobs) == (before.snapshots, before.blobs)
        for table in ("paths", "snapshot_files", "events"):
            assert ar.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 1, table


def test_write_that_completes_is_wholly_there(tmp_path, write_length):
    db, src = setup_kill_case(tmp_path)
    proc = run_killer(db, src, write_length + 1)
    assert proc.returncode == 0, proc.stderr
    with Archive(db) as ar:
        assert ar.integrity_check() == []
        nodes = ar.nodes()
        assert len(nodes) == 2
        assert nodes[1].origin == {"killed": True}
        out = ar.materialize(nodes[1].snapshot, tmp_path / "out")
        assert tree_listing(out) == tree_listing(src)
