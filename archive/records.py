"""Frozen records returned by every archive read. Never live rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

NodeStatus = Literal["pending", "valid", "invalid", "failed"]
JobState = Literal["queued", "running", "done", "failed"]

NODE_STATUSES: tuple[str, ...] = ("pending", "valid", "invalid", "failed")
JOB_STATES: tuple[str, ...] = ("queued", "running", "done", "failed")


@dataclass(frozen=True)
class Node:
    id: int
    parent_id: int | None
    snapshot: str
    status: NodeStatus
    origin: dict[str, Any]
    created_at: float
    reason: str | None = None
    second_parent_id: int | None = None  # a recombined child's other parent (parent_id is the primary)


@dataclass(frozen=True)
class SnapshotInfo:
    id: str
    n_files: int
    total_bytes: int
    created_at: float


@dataclass(frozen=True)
class ManifestEntry:
    """One path of a snapshot. `mode` is the full st_mode (type and permission bits);
    `blob` is the sha256 of the file content or symlink target, None for directories."""

    path: str
    mode: int
    blob: str | None
    size: int = 0


@dataclass(frozen=True)
class Job:
    id: int
    kind: str
    payload: dict[str, Any]
    state: JobState
    attempts: int
    max_attempts: int
    worker: str | None
    heartbeat_at: float | None
    created_at: float
    finished_at: float | None
    result: dict[str, Any] | None
    error: str | None


@dataclass(frozen=True)
class Evaluation:
    id: int
    node_id: int
    benchmark: str
    task_id: str
    attempt: int
    resolved: bool
    tests: dict[str, str]
    duration_s: float
    cost_usd: float
    log_blob: str | None
    created_at: float


@dataclass(frozen=True)
class FmCall:
    id: int
    job_id: int | None
    node_id: int | None
    model: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    latency_s: float
    request_hash: str
    status: str
    created_at: float
    error: str | None = None
    response_blob: str | None = None
    attempts: int = 1
    role: str | None = None  # solve | improve | diagnose | ... (None: recorded before roles were)


@dataclass(frozen=True)
class Event:
    id: int
    ts: float
    kind: str
    node_id: int | None
    job_id: int | None
    data: dict[str, Any]


@dataclass(frozen=True)
class Judgement:
    """A judge's review of one evaluation's patch: a score in [0, 1], never a resolution."""

    id: int
    node_id: int
    benchmark: str
    task_id: str
    score: float
    model: str | None
    rationale: str
    job_id: int | None
    created_at: float


@dataclass(frozen=True)
class Epoch:
    """A span of the run under one utility: it began after `from_evaluation` evaluations."""

    id: int  # its number, from 1
    utility: str
    from_evaluation: int
    created_at: float


@dataclass(frozen=True)
class CladeStats:
    """Pooled evaluation results over a node's whole subtree (the node included):
    the raw input of HGM's clade-metaproductivity estimate."""

    node_id: int
    successes: int
    failures: int
    n_nodes: int

    @property
    def n(self) -> int:
        return self.successes + self.failures


@dataclass(frozen=True)
class Problem:
    """One finding of `integrity_check()`."""

    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


@dataclass(frozen=True)
class ArchiveStats:
    nodes: int
    snapshots: int
    blobs: int
    blob_bytes: int
    raw_bytes: int
    file_bytes: int
    evaluations: int
    jobs_by_state: dict[str, int] = field(default_factory=dict)
    nodes_by_status: dict[str, int] = field(default_factory=dict)
