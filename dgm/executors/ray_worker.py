"""The worker's side of the Ray executor: one job on whichever node Ray placed it. The
node keeps a content-addressed cache of blobs and materialized snapshots, fetches from the
driver (through Ray's object store) only the blobs it lacks, serves sandboxes a gateway of
its own that forwards to the driver's, and returns the outcome as a value."""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archive.manifest import SnapshotLimits
from archive.records import ManifestEntry
from archive.snapshots import write
from sandbox import get_backend

from ..benchmarks import Grader, load_suite
from ..engine import work
from .base import EvaluateRequest, ExpandRequest, Request
from .local import job_dir, open_up, write_evidence
from .relay import Relay

DEFAULT_CACHE = "/var/tmp/dgm-ray"


@dataclass(frozen=True)
class WorkerSetup:
    """What every job of a run tells its worker (all plain values)."""

    run_key: str  # unique per run: names this run's job folders on the node
    backend: str
    benchmark: str
    solve_timeout_s: float
    improve_timeout_s: float
    cache_root: str | None = None  # default: $DGM_RAY_CACHE, else /var/tmp/dgm-ray


@dataclass(frozen=True)
class JobStats:
    node: str  # the Ray node id that ran the job
    fetched: int  # blobs fetched from the driver
    cached: int  # blobs the node had already (or a snapshot already materialized: all of them)


def cache_root(setup: WorkerSetup) -> Path:
    return Path(setup.cache_root or os.environ.get("DGM_RAY_CACHE") or DEFAULT_CACHE)


def _cached_blob(path: Path, sha: str) -> bytes | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    return data if hashlib.sha256(data).hexdigest() == sha else None  # a torn or tampered file is refetched


def _store_blob(path: Path, data: bytes) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def ensure_code(root: Path, snapshot: str, entries: list[ManifestEntry], refs: dict[str, Any]) -> tuple[Path, int, int]:
    """The snapshot's code on this node: materialized once, from cached blobs plus those
    fetched from the driver. Returns (path, fetched, cached)."""
    import ray

    dest = root / "code" / snapshot
    needed = sorted({e.blob for e in entries if e.blob})
    if dest.exists():
        return dest, 0, len(needed)
    blob_dir = root / "blobs"
    blob_dir.mkdir(parents=True, exist_ok=True)
    content = {sha: data for sha in needed if (data := _cached_blob(blob_dir / sha, sha)) is not None}
    missing = [sha for sha in needed if sha not in content]
    for sha, data in zip(missing, ray.get([refs[sha] for sha in missing]), strict=True):
        if hashlib.sha256(data).hexdigest() != sha:
            raise ValueError(f"blob {sha} arrived corrupted")
        _store_blob(blob_dir / sha, data)
        content[sha] = data
    partial = dest.with_name(f"{snapshot}.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    write(partial, entries, content, SnapshotLimits())
    open_up(partial)
    try:
        partial.rename(dest)
    except OSError:  # another worker on this node materialized it first
        shutil.rmtree(partial, ignore_errors=True)
    return dest, len(missing), len(needed) - len(missing)


def run_job(setup: WorkerSetup, request: Request, entries: list[ManifestEntry], refs: dict[str, Any], forwarder):
    """The Ray task: returns (outcome, JobStats)."""
    import ray

    root = cache_root(setup)
    code, fetched, cached = ensure_code(root, request.snapshot, entries, refs)
    stats = JobStats(ray.get_runtime_context().get_node_id(), fetched, cached)
    folder = job_dir(root / "work", f"{setup.run_key}-job-{request.job_id}")

    def forward(method, path, headers, body):
        return ray.get(forwarder.forward.remote(method, path, headers, body))

    try:
        with Relay(forward) as relay:
            backend = get_backend(setup.backend)
            ctx = work.Context(
                backend,
                Grader(backend, root / "grade-cache"),
                load_suite(setup.benchmark),
                relay.socket_path,
                solve_limits=work.limits_for(setup.solve_timeout_s),
                improve_limits=work.limits_for(setup.improve_timeout_s),
            )
            if isinstance(request, ExpandRequest):
                evidence = write_evidence(request.evidence, folder / "evidence")
                spec = work.ExpandJob(
                    request.job_id, request.parent_id, code, evidence, folder, request.token, request.generation
                )
                return work.run_expand(ctx, spec), stats
            assert isinstance(request, EvaluateRequest)
            spec = work.EvaluateJob(request.job_id, request.node_id, request.task_id, code, folder, request.token)
            return work.record(work.run_evaluate(ctx, spec)), stats
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def probe(backend_name: str) -> tuple[str, bool, str]:
    """Whether the sandbox backend works on the node this runs on: (node id, ok, detail)."""
    import ray

    availability = get_backend(backend_name).availability()
    return ray.get_runtime_context().get_node_id(), availability.ok, availability.detail
