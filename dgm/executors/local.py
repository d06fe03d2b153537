"""The default executor: jobs run in a thread pool of `--workers` on this machine, each in
a sandbox of the run's backend, reaching the model through the driver's own gateway."""

from __future__ import annotations

import concurrent.futures
import shutil

from .. import live_trajectory
from ..engine import work
from ..engine.jobs import EvaluateRequest, ExpandRequest, Request, RunEnv
from ..engine.node import code_cache, job_dir, write_evidence


class LocalExecutor:
    name = "threads"
    summary = "a thread pool on this machine"

    def __init__(self, workers: int = 2):
        self.workers = workers
        self.env: RunEnv | None = None
        self.pool: concurrent.futures.ThreadPoolExecutor | None = None

    @classmethod
    def from_config(cls, config) -> LocalExecutor:
        return cls(config.workers)

    def start(self, env: RunEnv) -> None:
        self.env = env
        self.pool = concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="dgm-job")

    def describe(self) -> str:
        return f"{self.workers} local worker(s), {self.env.context.backend.name} sandboxes"

    def submit(self, request: Request) -> concurrent.futures.Future:
        env = self.env
        code = code_cache(env.archive, env.run_dir / "cache" / "code", request.snapshot)
        where = live_trajectory.job_folder(env.run_dir, request.job_id)  # where `dgm serve` looks for it
        folder = job_dir(where.parent, where.name)
        if isinstance(request, ExpandRequest):
            write_evidence(request.evidence, folder / "evidence")
            spec = work.ExpandJob(
                request.job_id,
                request.parent_id,
                code,
                folder / "evidence",
                folder,
                request.token,
                request.generation,
                request.teacher,
            )
            return self.pool.submit(_expand, env.context, spec)
        assert isinstance(request, EvaluateRequest)
        spec = work.EvaluateJob(
            request.job_id, request.node_id, request.task_id, code, folder, request.token, request.judge
        )
        return self.pool.submit(_evaluate, env.context, spec)

    def shutdown(self, cancel: bool = False) -> int:
        if self.pool is None:
            return 0
        closed = 0
        if cancel:
            backend = self.env.context.backend
            closed = backend.close_all() if hasattr(backend, "close_all") else 0
        self.pool.shutdown(wait=not cancel, cancel_futures=cancel)
        self.pool = None
        return closed


def _expand(ctx: work.Context, spec: work.ExpandJob) -> work.ExpandOutcome:
    try:
        return work.run_expand(ctx, spec)
    finally:
        shutil.rmtree(spec.work, ignore_errors=True)


def _evaluate(ctx: work.Context, spec: work.EvaluateJob) -> work.EvaluationRecord:
    try:
        return work.record(work.run_evaluate(ctx, spec))
    finally:
        shutil.rmtree(spec.work, ignore_errors=True)
