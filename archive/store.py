"""`Archive`: the one object the engine holds. Every write is one transaction."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import networkx as nx

from . import blobs, diff, integrity, results, signals, snapshots, tree
from .db import connect, inserted, write_transaction
from .errors import ArchiveError, UnknownRecordError
from .jobs import JobQueue
from .manifest import SnapshotLimits
from .records import (
    NODE_STATUSES,
    ArchiveStats,
    CladeStats,
    Epoch,
    Evaluation,
    Event,
    FmCall,
    Judgement,
    ManifestEntry,
    Node,
    Problem,
    SnapshotInfo,
)

ARCHIVE_FILE = "archive.db"
_NODE_SQL = """SELECT n.id, n.parent_id, s.digest, n.status, n.origin, n.created_at, n.reason, n.second_parent_id
               FROM nodes n JOIN snapshots s ON s.id = n.snapshot_id"""


def _node(row: tuple[Any, ...]) -> Node:
    id_, parent, digest, status, origin, created, reason, second = row
    return Node(id_, parent, digest, status, json.loads(origin), created, reason, second)


class Archive:
    """A run's archive: snapshots, nodes, evaluations, jobs, model calls and events."""

    def __init__(
        self,
        path: str | Path,
        *,
        create: bool = True,
        limits: SnapshotLimits | None = None,
        busy_timeout_s: float = 60.0,
        synchronous: str = "FULL",
        clock: Callable[[], float] = time.time,
        shared_between_threads: bool = False,
        read_only: bool = False,
    ):
        """`shared_between_threads`: allow use from several threads; the caller serialises
        access (one lock around every call), as the gateway does. `read_only`: to watch a
        run (as `dgm serve` does); every write raises, and nothing is migrated."""
        self.path = Path(path)
        self.limits = limits or SnapshotLimits()
        self.clock = clock
        self.db = connect(
            self.path,
            create=create and not read_only,
            busy_timeout_s=busy_timeout_s,
            synchronous=synchronous,
            check_same_thread=not shared_between_threads,
            read_only=read_only,
        )
        self.jobs = JobQueue(self.db, clock)

    @classmethod
    def for_run(cls, run_dir: str | Path, *, create: bool = False, **kwargs: Any) -> Archive:
        """The archive of run directory `run_dir` (`RUN/archive.db`)."""
        run_dir = Path(run_dir)
        if create:
            run_dir.mkdir(parents=True, exist_ok=True)
        elif not run_dir.is_dir():
            raise ArchiveError(f"no run directory at {run_dir}")
        return cls(run_dir / ARCHIVE_FILE, create=create, **kwargs)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def atomic(self) -> Iterator[None]:
        """Group several writes into one transaction (nested calls become savepoints)."""
        with write_transaction(self.db):
            yield

    # --- snapshots -------------------------------------------------------------------
    def add_snapshot(self, root: str | Path) -> str:
        """Store the tree under `root`; return its content id (equal trees, equal ids)."""
        tree_ = snapshots.scan(Path(root), self.limits)
        with self.atomic():
            return snapshots.store(self.db, tree_)

    def materialize(self, snapshot: str, dest: str | Path) -> Path:
        snapshots.materialize(self.db, snapshot, Path(dest), self.limits)
        return Path(dest)

    def manifest(self, snapshot: str) -> list[ManifestEntry]:
        return [e for e, _ in snapshots.load_entries(self.db, snapshot)]

    def snapshot_info(self, snapshot: str) -> SnapshotInfo:
        row = self.db.execute(
            "SELECT digest, n_files, total_bytes, created_at FROM snapshots WHERE digest = ?", [snapshot]
        ).fetchone()
        if row is None:
            raise UnknownRecordError(f"no snapshot {snapshot}")
        return SnapshotInfo(*row)

    def blob(self, sha256: str) -> bytes:
        return blobs.get(self.db, sha256)

    def add_blob(self, data: bytes) -> str:
        """Store `data` once (content-addressed); return its sha256, for `blob()`."""
        digest = blobs.sha256(data)
        with self.atomic():
            blobs.put(self.db, data, digest)
        return digest

    def diff(self, a: str, b: str, context: int = 3) -> str:
        """Unified diff from snapshot `a` to snapshot `b`."""
        return diff.unified(self.manifest(a), self.manifest(b), self.blob, context)

    # --- nodes -----------------------------------------------------------------------
    def add_node(
        self,
        parent_id: int | None,
        snapshot: str,
        status: str = "pending",
        origin: dict[str, Any] | None = None,
        second_parent_id: int | None = None,
    ) -> Node:
        """`second_parent_id`: a recombined child's other parent (it needs a primary one)."""
        self._check_status(status)
        if second_parent_id is not None and (parent_id is None or second_parent_id == parent_id):
            raise ArchiveError("a second parent needs a primary parent other than itself")
        with self.atomic():
            for existing in (parent_id, second_parent_id):
                if existing is not None:
                    self.node(existing)
            node_id = inserted(
                self.db.execute(
                    "INSERT INTO nodes (parent_id, snapshot_id, status, origin, created_at, second_parent_id) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        parent_id,
                        snapshots.row_id(self.db, snapshot),
                        status,
                        json.dumps(origin or {}, sort_keys=True),
                        self.clock(),
                        second_parent_id,
                    ],
                )
            )
            results.log_event(
                self.db, self.clock(), "node_added", node_id=node_id, data={"parent_id": parent_id, "status": status}
            )
            return self.node(node_id)

    def add_child(
        self,
        parent_id: int | None,
        root: str | Path | snapshots.ScannedTree,
        status: str = "pending",
        origin: dict[str, Any] | None = None,
        second_parent_id: int | None = None,
    ) -> Node:
        """Snapshot `root` (a directory, or a tree that came as a value, which is verified
        first) and add it as a node, in one transaction."""
        if isinstance(root, snapshots.ScannedTree):
            tree_ = snapshots.verify(root, self.limits)
        else:
            tree_ = snapshots.scan(Path(root), self.limits)
        with self.atomic():
            return self.add_node(parent_id, snapshots.store(self.db, tree_), status, origin, second_parent_id)

    def set_status(self, node_id: int, status: str, reason: str | None = None) -> Node:
        self._check_status(status)
        with self.atomic():
            self.node(node_id)
            self.db.execute("UPDATE nodes SET status = ?, reason = ? WHERE id = ?", [status, reason, node_id])
            results.log_event(
                self.db, self.clock(), "node_status", node_id=node_id, data={"status": status, "reason": reason}
            )
            return self.node(node_id)

    @staticmethod
    def _check_status(status: str) -> None:
        if status not in NODE_STATUSES:
            raise ArchiveError(f"unknown node status {status!r}; one of {', '.join(NODE_STATUSES)}")

    def node(self, node_id: int) -> Node:
        row = self.db.execute(_NODE_SQL + " WHERE n.id = ?", [node_id]).fetchone()
        if row is None:
            raise UnknownRecordError(f"no node {node_id}")
        return _node(row)

    def nodes(self, status: str | None = None) -> list[Node]:
        where, params = (" WHERE n.status = ?", [status]) if status else ("", [])
        return [_node(r) for r in self.db.execute(_NODE_SQL + where + " ORDER BY n.id", params)]

    def children(self, node_id: int) -> list[Node]:
        return [_node(r) for r in self.db.execute(_NODE_SQL + " WHERE n.parent_id = ? ORDER BY n.id", [node_id])]

    # --- tree queries ----------------------------------------------------------------
    def tree(self) -> nx.DiGraph:
        return tree.graph(self.db)

    def lineage(self, node_id: int) -> list[Node]:
        """The nodes from the root down to `node_id`."""
        self.node(node_id)
        return [self.node(i) for i in tree.lineage_ids(self.db, node_id)]

    def descendants(self, node_id: int) -> list[int]:
        self.node(node_id)
        return tree.descendant_ids(self.db, node_id)

    def clade_stats(self, benchmark: str | None = None) -> dict[int, CladeStats]:
        return tree.clade_stats(self.db, benchmark)

    # --- results ---------------------------------------------------------------------
    def add_evaluation(self, node_id: int, benchmark: str, task_id: str, resolved: bool, **kw: Any) -> Evaluation:
        with self.atomic():
            return results.add_evaluation(self.db, self.clock(), node_id, benchmark, task_id, resolved, **kw)

    def evaluations(self, node_id: int | None = None, benchmark: str | None = None) -> list[Evaluation]:
        return results.evaluations(self.db, node_id, benchmark)

    def add_judgement(self, node_id: int, benchmark: str, task_id: str, score: float, **kw: Any) -> Judgement:
        """A judge's score in [0, 1] for a node's patch on a task (`model`, `rationale`, `job_id`)."""
        with self.atomic():
            return signals.add_judgement(self.db, self.clock(), node_id, benchmark, task_id, score, **kw)

    def judgements(self, node_id: int | None = None, benchmark: str | None = None) -> list[Judgement]:
        return signals.judgements(self.db, node_id, benchmark)

    def add_epoch(self, utility: str, from_evaluation: int) -> Epoch:
        """The next epoch begins, after `from_evaluation` evaluations, under `utility`."""
        with self.atomic():
            return signals.add_epoch(self.db, self.clock(), utility, from_evaluation)

    def epochs(self) -> list[Epoch]:
        return signals.epochs(self.db)

    def add_fm_call(self, response: bytes | None = None, **fields: Any) -> FmCall:
        with self.atomic():
            return results.add_fm_call(self.db, self.clock(), response, **fields)

    def fm_calls(self, job_id: int | None = None, request_hash: str | None = None) -> list[FmCall]:
        return results.fm_calls(self.db, job_id, request_hash=request_hash)

    def fm_usage(self, job_id: int | None = None) -> tuple[int, float]:
        """(tokens, dollars) spent on model calls, by one job or by the whole run."""
        return results.fm_usage(self.db, job_id)

    def fm_call_count(self, job_id: int | None = None) -> int:
        """Model calls made so far, by one job or by the whole run."""
        return results.fm_call_count(self.db, job_id)

    def log_event(
        self, kind: str, node_id: int | None = None, job_id: int | None = None, data: dict[str, Any] | None = None
    ) -> None:
        with self.atomic():
            results.log_event(self.db, self.clock(), kind, node_id, job_id, data)

    def events(self, kind: str | None = None) -> list[Event]:
        return results.events(self.db, kind)

    # --- the run row -----------------------------------------------------------------
    def run_config(self) -> dict[str, Any] | None:
        """The resolved configuration stored when the run started (None for a new archive)."""
        row = self.db.execute("SELECT config FROM runs ORDER BY id LIMIT 1").fetchone()
        return json.loads(row[0]) if row else None

    def save_run_config(self, config: dict[str, Any], seed: int | None = None) -> None:
        with self.atomic():
            if self.db.execute("SELECT 1 FROM runs").fetchone():
                self.db.execute(
                    "UPDATE runs SET config = ?, seed = ? WHERE id = (SELECT min(id) FROM runs)",
                    [json.dumps(config, sort_keys=True), seed],
                )
            else:
                self.db.execute(
                    "INSERT INTO runs (created_at, seed, config) VALUES (?, ?, ?)",
                    [self.clock(), seed, json.dumps(config, sort_keys=True)],
                )

    # --- whole-archive views -----------------------------------------------------------
    def stats(self) -> ArchiveStats:
        def one(sql: str) -> int:
            return int(self.db.execute(sql).fetchone()[0])

        by_status = dict(self.db.execute("SELECT status, count(*) FROM nodes GROUP BY status").fetchall())
        wal = self.path.with_name(self.path.name + "-wal")
        return ArchiveStats(
            nodes=one("SELECT count(*) FROM nodes"),
            snapshots=one("SELECT count(*) FROM snapshots"),
            blobs=one("SELECT count(*) FROM blobs"),
            blob_bytes=one("SELECT coalesce(sum(length(data)), 0) FROM blobs"),
            raw_bytes=one("SELECT coalesce(sum(size), 0) FROM blobs"),
            file_bytes=self.path.stat().st_size + (wal.stat().st_size if wal.exists() else 0),
            evaluations=one("SELECT count(*) FROM evaluations"),
            jobs_by_state=self.jobs.counts(),
            nodes_by_status={s: by_status.get(s, 0) for s in NODE_STATUSES},
        )

    def integrity_check(self) -> list[Problem]:
        """Every problem found; an empty list means the archive is sound."""
        return integrity.check(self.db, self.limits)
