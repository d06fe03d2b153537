"""The worker's side of the Ray executor: one job on whichever node Ray placed it. The
node keeps a content-addressed cache of blobs and materialized snapshots, fetches from the
driver (through Ray's object store) only the blobs it lacks, serves sandboxes a gateway of
its own that forwards to the driver's, and returns the outcome as a value."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archive.manifest import SnapshotLimits
from archive.records import ManifestEntry
from archive.snapshots import open_up, write
from sandbox import get_backend

from ..engine import work
from ..engine.jobs import EvaluateRequest, ExpandRequest, Request
from ..engine.node import job_dir, write_evidence
from ..suites import Grader, load_suite
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


def cache_root(chosen: str | None) -> Path:
    """The node's cache: the run's choice, else $DGM_RAY_CACHE, else /var/tmp/dgm-ray."""
    return Path(chosen or os.environ.get("DGM_RAY_CACHE") or DEFAULT_CACHE)


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
    fetched = ray.get([refs[sha] for sha in missing]) if missing else []
    for sha, data in zip(missing, fetched, strict=True):
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


def _claim(work: Path, name: str) -> int:
    """Hold `<name>.lock` for the job's life; the kernel lets go when its process dies. The
    lock is taken under a temporary name and then renamed, so a sweep never sees it free."""
    work.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=work, prefix=f".{name}.")
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.rename(tmp, work / f"{name}.lock")
    return fd


def sweep(work: Path) -> int:
    """Remove what jobs killed on this node left behind (a job folder and its relay socket
    whose lock no living process holds). Returns how many were removed."""
    removed = 0
    for lock in sorted(work.glob("*.lock")) if work.is_dir() else []:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CLOEXEC)
        except FileNotFoundError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue  # a running job
        try:
            relay_dir = os.read(fd, 4096).decode(errors="replace").strip()
            if relay_dir.startswith(tempfile.gettempdir() + "/dgm-relay-"):
                shutil.rmtree(relay_dir, ignore_errors=True)
            shutil.rmtree(work / lock.stem, ignore_errors=True)
            lock.unlink(missing_ok=True)
            removed += 1
        finally:
            os.close(fd)
    return removed


def run_job(setup: WorkerSetup, request: Request, entries: list[ManifestEntry], refs: dict[str, Any], forwarder):
    """The Ray task: returns (outcome, JobStats)."""
    import ray

    root = cache_root(setup.cache_root)
    code, fetched, cached = ensure_code(root, request.snapshot, entries, refs)
    stats = JobStats(ray.get_runtime_context().get_node_id(), fetched, cached)
    name = f"{setup.run_key}-job-{request.job_id}"
    sweep(root / "work")
    lock = _claim(root / "work", name)
    folder = job_dir(root / "work", name)

    def forward(method, path, headers, body):
        return ray.get(forwarder.forward.remote(method, path, headers, body))

    try:
        with Relay(forward) as relay:
            os.write(lock, relay.directory.encode())  # for a sweep, should this process be killed
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
                    request.job_id,
                    request.parent_id,
                    code,
                    evidence,
                    folder,
                    request.token,
                    request.generation,
                    request.teacher,
                )
                return work.run_expand(ctx, spec), stats
            assert isinstance(request, EvaluateRequest)
            spec = work.EvaluateJob(
                request.job_id, request.node_id, request.task_id, code, folder, request.token, request.judge
            )
            return work.record(work.run_evaluate(ctx, spec)), stats
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        (root / "work" / f"{name}.lock").unlink(missing_ok=True)
        os.close(lock)


def probe(backend_name: str, setup_cache: str | None = None) -> tuple[str, bool, str]:
    """Whether the sandbox backend works on the node this runs on: (node id, ok, detail).
    It also sweeps what killed jobs left in the node's cache."""
    import ray

    swept = sweep(cache_root(setup_cache) / "work")
    availability = get_backend(backend_name).availability()
    detail = availability.detail + (f" (swept {swept} folder(s) left by killed jobs)" if swept else "")
    return ray.get_runtime_context().get_node_id(), availability.ok, detail
