"""Executors: where the engine's jobs run. One registry, name -> class; the CLI's
`--executor` choices come from it. `ray` needs the optional extra (pip install dgm[ray])
and imports Ray only when a run starts."""

from __future__ import annotations

from .base import (
    EvaluateRequest,
    Executor,
    ExecutorError,
    ExpandRequest,
    Request,
    RunEnv,
    WorkerLost,
)
from .local import LocalExecutor
from .ray_executor import RayExecutor

EXECUTORS: dict[str, type] = {
    LocalExecutor.name: LocalExecutor,
    RayExecutor.name: RayExecutor,
}

__all__ = [
    "EXECUTORS",
    "EvaluateRequest",
    "Executor",
    "ExecutorError",
    "ExpandRequest",
    "LocalExecutor",
    "RayExecutor",
    "Request",
    "RunEnv",
    "WorkerLost",
]
