"""The Python API of an evolution run, and the one place a run is put together from its
parts (engine, executor, model upstream, sandbox backend), which do not know each other.
`Evolution.prepare` resolves the configuration (defaults < the stored one when resuming <
dgm.toml < options), picks the upstream, the backend and the executor, and checks that the
backend works; `run` drives the engine to the first limit and returns the run's summary. `dgm evolve` is a thin mapping
onto it, and a notebook uses it the same way:

    from dgm.evolution import Evolution

    evolution = Evolution.prepare("runs/r1", {"fm": "openai", "model": "gpt-4o-mini", "max_evals": 50})
    with evolution.stop_on_signals():  # optional: Ctrl-C finishes running jobs, twice stops at once
        summary = evolution.run()

Every failure it can foresee is one of `ERRORS`, with a message that says what to do."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archive import Archive, ArchiveError
from sandbox import SandboxError, get_backend

from . import model, stopping
from .engine.config import ConfigError, RunConfig, auto_fm, load_file, resolve
from .engine.engine import Engine, EngineError
from .engine.jobs import Executor, ExecutorError
from .engine.progress import Progress
from .executors import for_config
from .gateway import GatewayError, UpstreamError, make_upstream, upstream_name
from .suites import BenchmarkError

ERRORS = (
    ConfigError,
    UpstreamError,
    SandboxError,
    ExecutorError,
    EngineError,
    ArchiveError,
    BenchmarkError,
    GatewayError,
    model.ModelInstallError,
)


def stored_config(run_dir: Path) -> dict[str, Any] | None:
    """The configuration stored in an existing run, or None for a new run."""
    if not (Path(run_dir) / "archive.db").exists():
        return None
    with Archive.for_run(run_dir, create=False) as archive:
        return archive.run_config()


def ensure_local_model(notify: Callable[[str], None]) -> None:
    """Install the embedded local model once (a 1.1 GB download), saying so."""
    if model.runtime_installed() and model.model_path().exists():
        return
    notify(
        "no model endpoint configured (OPENAI_API_KEY, OPENAI_BASE_URL or DGM_FM_URL), so dgm uses its "
        "embedded local model (offline and weak); installing it once: a 1.1 GB download"
    )
    model.install(lambda message: notify(f"model install: {message}"))


@dataclass
class Evolution:
    run_dir: Path
    config: RunConfig
    engine: Engine
    resumed: bool

    @classmethod
    def prepare(
        cls,
        run_dir: str | Path,
        options: Mapping[str, Any] | None = None,
        config_file: str | Path | None = None,
        *,
        progress: Progress | None = None,
        executor: Executor | None = None,
        environ: Mapping[str, str] | None = None,
        notify: Callable[[str], None] | None = None,
    ) -> Evolution:
        """A run in `run_dir` (new, or resumed when it holds one), ready to `run`.
        `options` are RunConfig fields (None values are ignored); `environ` is where
        `fm = "auto"` looks for an endpoint (default: this process's environment);
        `notify` receives one-off messages (default: the progress output)."""
        run_dir = Path(run_dir)
        progress = progress or Progress()
        notify = notify or progress.note
        stored = stored_config(run_dir)
        environ = dict(os.environ if environ is None else environ)
        config = resolve(load_file(Path(config_file)) if config_file else {}, dict(options or {}), stored, environ)
        if config.fm == "auto":
            config = dataclasses.replace(config, fm=auto_fm(environ))
            notify(f"model upstream: {config.fm}")
        if upstream_name(config.fm) == "embedded":
            ensure_local_model(notify)
        upstream = make_upstream(config.fm, workers=config.workers)
        backend = get_backend(config.backend)
        available = backend.availability()
        if not available.ok:
            raise SandboxError(f"sandbox backend {config.backend} does not work here: {available.detail}")
        engine = Engine(run_dir, config, upstream, backend, progress, executor=executor or for_config(config))
        if stored:
            progress.note(f"resuming the run in {run_dir}")
        return cls(run_dir, config, engine, stored is not None)

    def run(self) -> dict[str, Any]:
        """Evolve until a limit is reached or nothing is left; the run's summary."""
        try:
            return self.engine.run()
        finally:
            self.engine.progress.close()

    @property
    def stopped_on_request(self) -> bool:
        return self.engine.stop_request is not None

    def request_stop(self, reason: str, force: bool = False) -> None:
        """Finish running jobs and stop (safe from a signal handler); `force`: at once."""
        self.engine.request_stop(reason, force)

    def stop_on_signals(self) -> AbstractContextManager[None]:
        """While inside: SIGINT/SIGTERM finish running jobs and stop; a second one stops at
        once (running jobs go back to the queue). The previous handlers come back after."""
        return stopping.two_stage(lambda reason, force: self.request_stop(reason, force), self.engine.progress.note)
