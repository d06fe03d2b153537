"""`integrity_check()`: everything the archive promises, verified from the stored bytes."""

from __future__ import annotations

import stat
from collections.abc import Iterator

import sqlite_utils

from . import blobs, manifest, snapshots
from .errors import ArchiveError
from .manifest import SnapshotLimits
from .records import JOB_STATES, NODE_STATUSES, Problem


def check(db: sqlite_utils.Database, limits: SnapshotLimits) -> list[Problem]:
    problems: list[Problem] = []
    for section in (_sqlite, _blobs, _snapshots, _nodes, _jobs):
        problems.extend(section(db, limits))
    return problems


def _sqlite(db: sqlite_utils.Database, _limits: SnapshotLimits) -> Iterator[Problem]:
    for (line,) in db.execute("PRAGMA integrity_check"):
        if line != "ok":
            yield Problem("sqlite", line)
    for table, rowid, parent, _fk in db.execute("PRAGMA foreign_key_check"):
        yield Problem("reference", f"{table} row {rowid} points to a missing {parent} row")


def _blobs(db: sqlite_utils.Database, _limits: SnapshotLimits) -> Iterator[Problem]:
    for digest, size, stored in db.execute("SELECT sha256, size, data FROM blobs ORDER BY id"):
        try:
            blobs.decode(digest, size, stored)
        except ArchiveError as exc:
            yield Problem("blob", str(exc))


def _snapshots(db: sqlite_utils.Database, limits: SnapshotLimits) -> Iterator[Problem]:
    for digest, n_files, total in db.execute(
        "SELECT digest, n_files, total_bytes FROM snapshots ORDER BY id"
    ).fetchall():
        name = f"snapshot {digest[:12]}"
        rows = snapshots.load_entries(db, digest)
        entries = [e for e, _ in rows]
        if manifest.digest(entries) != digest:
            yield Problem("snapshot", f"{name}: manifest does not match its id")
        if len(entries) != n_files or sum(e.size for e in entries) != total:
            yield Problem("snapshot", f"{name}: recorded counts do not match the manifest")
        link_ids = {e.path: b for e, b in rows if stat.S_ISLNK(e.mode) and b is not None}
        try:
            content = blobs.get_many(db, link_ids.values())
            links = {p: content[b].decode("utf-8", "surrogateescape") for p, b in link_ids.items()}
            manifest.validate(entries, links, limits)
        except ArchiveError as exc:
            yield Problem("snapshot", f"{name}: {exc}")


def _nodes(db: sqlite_utils.Database, _limits: SnapshotLimits) -> Iterator[Problem]:
    parent = dict(db.execute("SELECT id, parent_id FROM nodes").fetchall())
    for node_id, status in db.execute("SELECT id, status FROM nodes"):
        if status not in NODE_STATUSES:
            yield Problem("node", f"node {node_id} has unknown status {status!r}")
    done: set[int] = set()
    for start in parent:
        path: list[int] = []
        on_path: set[int] = set()
        node = start
        while node is not None and node not in done:
            if node in on_path:
                yield Problem("node", f"parent links form a cycle through node {node}")
                break
            if node not in parent:
                yield Problem("node", f"node {path[-1]} has a missing parent {node}")
                break
            path.append(node)
            on_path.add(node)
            node = parent[node]
        done.update(path)


def _jobs(db: sqlite_utils.Database, _limits: SnapshotLimits) -> Iterator[Problem]:
    rows = db.execute("SELECT id, state, attempts, max_attempts, worker, heartbeat_at, finished_at FROM jobs")
    for job_id, state, attempts, max_attempts, worker, heartbeat_at, finished_at in rows:
        why = None
        if state not in JOB_STATES:
            why = f"unknown state {state!r}"
        elif not 0 <= attempts <= max_attempts:
            why = f"{attempts} attempts of at most {max_attempts}"
        elif state == "running" and (worker is None or heartbeat_at is None or attempts < 1):
            why = "running without a worker, heartbeat or attempt"
        elif state == "queued" and (worker is not None or finished_at is not None):
            why = "queued but held by a worker or finished"
        elif state in ("done", "failed") and finished_at is None:
            why = f"{state} without a finish time"
        elif state == "done" and attempts < 1:
            why = "done without ever being claimed"
        if why:
            yield Problem("job", f"job {job_id}: {why}")
