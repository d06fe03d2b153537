"""Executors: where the engine's jobs run. They implement the engine's job protocol
(`dgm.engine.jobs`) and import the engine, never the reverse: whoever starts a run picks
one here (`for_config`) and hands it to the engine. One registry, name -> class; the CLI's
`--executor` choices come from it. `ray` needs the optional extra (pip install dgm[ray])
and imports Ray only when a run starts."""

from __future__ import annotations

from ..engine.config import RunConfig
from ..engine.jobs import Executor, ExecutorError
from .local import LocalExecutor
from .ray_executor import RayExecutor

EXECUTORS: dict[str, type] = {
    LocalExecutor.name: LocalExecutor,
    RayExecutor.name: RayExecutor,
}
ALIASES = {"local": "threads"}  # names an executor was known by before; still accepted


def for_config(config: RunConfig) -> Executor:
    """The executor `config.executor` names, built from the run's configuration."""
    name = ALIASES.get(config.executor, config.executor)
    if name not in EXECUTORS:
        raise ExecutorError(
            f"config: executor = {config.executor!r} is not valid; expected one of {', '.join(EXECUTORS)}"
        )
    return EXECUTORS[name].from_config(config)


__all__ = ["ALIASES", "EXECUTORS", "LocalExecutor", "RayExecutor", "for_config"]
