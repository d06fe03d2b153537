"""A worker node's cache without a cluster: agents materialized from cached blobs only,
a tampered cached blob refused, and the sweep of what killed jobs left behind."""

from __future__ import annotations

import fcntl
import os

import pytest

from archive import Archive
from dgm.executors.ray_worker import _claim, ensure_code, sweep
from tests.helpers import tree_listing, write_tree


@pytest.fixture
def stored(tmp_path):
    src = write_tree(tmp_path / "agent", {"pkg/__init__.py": "", "pkg/main.py": "print('hi')\n", "README.md": "x"})
    with Archive.for_run(tmp_path / "run", create=True) as ar:
        snapshot = ar.add_snapshot(src)
        entries = ar.manifest(snapshot)
        blobs = {e.blob: ar.blob(e.blob) for e in entries if e.blob}
    return src, snapshot, entries, blobs


def test_an_agent_comes_from_cached_blobs_alone(tmp_path, stored):
    src, snapshot, entries, blobs = stored
    node = tmp_path / "node"
    write_tree(node / "blobs", dict(blobs.items()))
    code, fetched, cached = ensure_code(node, snapshot, entries, refs={})
    assert (fetched, cached) == (0, len(blobs))
    assert {k: v[1] for k, v in tree_listing(code).items()} == {k: v[1] for k, v in tree_listing(src).items()}
    again = ensure_code(node, snapshot, entries, refs={})
    assert again == (code, 0, len(blobs))


def test_a_tampered_cached_blob_is_fetched_again(tmp_path, stored):
    _, snapshot, entries, blobs = stored
    node = tmp_path / "node"
    write_tree(node / "blobs", {sha: b"tampered" for sha in blobs})
    with pytest.raises(KeyError):  # wanted from the driver (no refs here), never used as it was
        ensure_code(node, snapshot, entries, refs={})
    assert not (node / "code" / snapshot).exists()


def test_sweep_removes_only_what_dead_jobs_left(tmp_path):
    work = tmp_path / "work"
    live = _claim(work, "run-job-1")
    (work / "run-job-1").mkdir()
    dead = _claim(work, "run-job-2")
    (work / "run-job-2").mkdir()
    os.close(dead)  # as when the job's process is killed
    assert sweep(work) == 1
    assert sorted(p.name for p in work.iterdir()) == ["run-job-1", "run-job-1.lock"]
    with pytest.raises(BlockingIOError):  # the live job still holds its lock
        fcntl.flock(os.open(work / "run-job-1.lock", os.O_RDWR), fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.close(live)
    assert sweep(work) == 1
    assert list(work.iterdir()) == []
