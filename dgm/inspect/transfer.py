"""Transfer evaluation: one agent on another suite, split or model, recorded in the
archive under its own label (SUITE[:split]@MODEL), resumable task by task. A stop request
(`stop`, set by Ctrl-C in `dgm eval`) starts no more tasks and lets the running ones
finish; a forced one closes their sandboxes, marks their jobs failed and returns at once."""

from __future__ import annotations

import concurrent.futures
import logging
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from archive import Archive

from ..engine import work
from ..gateway import Budget, Gateway, Upstream
from ..stopping import StopRequest
from ..suites import Grader, Suite
from ..suites.evaluate import Evaluation

log = logging.getLogger(__name__)

# A running eval heartbeats its jobs; one not heartbeated for STALE_S was left by an eval that
# was killed, and the next eval marks it failed (it would otherwise show as running forever).
HEARTBEAT_S = 30.0
STALE_S = 120.0
POLL_S = 1.0  # how soon a stop request is seen
WORKER = "transfer"


@dataclass(frozen=True)
class TransferResult:
    label: str
    results: dict[str, Evaluation]  # task id -> evaluation done now
    skipped: tuple[str, ...]  # tasks already recorded under this label
    stopped: str | None = None  # why it stopped before every task was done


def label_for(suite_spec: str, model: str) -> str:
    return f"{suite_spec}@{model}"


def run(
    archive: Archive,
    node_id: int,
    code: Path,
    suite: Suite,
    suite_spec: str,
    upstream: Upstream,
    model: str | None,
    backend,
    work_dir: Path,
    workers: int = 2,
    job_tokens: int | None = 400_000,
    timeout_s: float = 900.0,
    on_result: Callable[[str, Evaluation], None] | None = None,
    stop: StopRequest | None = None,
) -> TransferResult:
    model_name = model or upstream.models()[0]
    label = label_for(suite_spec, model_name)
    done = {e.task_id for e in archive.evaluations(node_id, label)}
    stale = archive.jobs.fail_stale(
        "transfer", STALE_S, f"stale: the eval running it stopped (no heartbeat for {STALE_S:g}s)"
    )
    if stale:
        log.warning("%d transfer job(s) left running by an eval that stopped were marked failed", len(stale))
    todo = [t for t in suite.tasks if t.id not in done]
    results: dict[str, Evaluation] = {}
    stop = stop or StopRequest()
    archive_lock = threading.Lock()  # `archive` and the gateway's connection write the same file
    with Gateway(upstream, archive.path, model=model_name, archive_lock=archive_lock) as gateway:
        limits = work.limits_for(timeout_s)
        grader = Grader(backend, work_dir / "grade-cache")
        ctx = work.Context(backend, grader, suite, gateway.socket_path, solve_limits=limits, improve_limits=limits)
        waiting, running = list(todo), {}

        def start(task) -> None:
            """Queue and claim the task's job once a worker is free for it, so that the archive
            shows as running only what runs (and its start as the job's start)."""
            with archive_lock:
                job = archive.jobs.enqueue("transfer", {"node": node_id, "task": task.id, "label": label})
                archive.jobs.claim(WORKER, job_id=job.id)
            token = gateway.issue_token(job.id, node_id, Budget(tokens=job_tokens), role="solve")
            folder = work_dir / f"task-{job.id}"
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            folder.chmod(0o755)
            spec = work.EvaluateJob(job.id, node_id, task.id, code, folder, token)
            running[pool.submit(work.run_evaluate, ctx, spec)] = (job, task, token, folder)

        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            last_beat = time.monotonic()
            while (waiting and not stop.reason) or running:
                while waiting and not stop.reason and len(running) < workers:
                    start(waiting.pop(0))
                finished, _ = concurrent.futures.wait(
                    running, timeout=min(POLL_S, HEARTBEAT_S), return_when=concurrent.futures.FIRST_COMPLETED
                )
                if stop.force and running:
                    _abandon(archive, archive_lock, gateway, backend, running, stop.reason)
                    break
                if time.monotonic() - last_beat >= HEARTBEAT_S:
                    with archive_lock:
                        for future, (job, *_) in running.items():
                            if future not in finished:
                                archive.jobs.heartbeat(job.id, WORKER)
                    last_beat = time.monotonic()
                for future in finished:
                    job, task, token, folder = running.pop(future)
                    gateway.revoke_token(token)
                    try:
                        judged = future.result()
                    except Exception as exc:
                        log.exception("transfer task %s failed", task.id)
                        with archive_lock:
                            archive.jobs.fail(job.id, WORKER, f"{exc.__class__.__name__}: {exc}", retry=False)
                        continue
                    with archive_lock:
                        work.store_evaluation(archive, node_id, label, task.id, work.record(judged), job.id, WORKER)
                    shutil.rmtree(folder, ignore_errors=True)
                    results[task.id] = judged.evaluation
                    if on_result:
                        on_result(task.id, judged.evaluation)
    stopped = stop.reason if len(results) + len(done) < len(suite.tasks) else None
    return TransferResult(label, results, tuple(sorted(done)), stopped)


def _abandon(archive: Archive, lock: threading.Lock, gateway: Gateway, backend, running: dict, reason: str) -> None:
    """A forced stop: the running tasks' jobs are failed (the next eval of the same label does
    them again), their tokens revoked and their sandboxes closed, so that the threads running
    them end now rather than at the job's time limit."""
    with lock:
        for job, _task, token, _folder in running.values():
            archive.jobs.fail(job.id, WORKER, f"stopped: {reason}", retry=False)
            gateway.revoke_token(token)
    closed = backend.close_all()
    log.warning("stopped: %d running task(s) abandoned, %d sandbox(es) closed", len(running), closed)
    running.clear()
