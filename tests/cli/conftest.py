"""An archive produced by a real scripted run (bwrap, gateway, SCRIPTED upstream), made
once for the inspection-command tests, which only read it (or copy it first)."""

from __future__ import annotations

import pytest

from tests.engine.conftest import evolve_ok, make_engine_env


@pytest.fixture(scope="session")
def scripted_run(tmp_path_factory, availability):
    from tests.conftest import require

    require("bwrap", availability)
    root = tmp_path_factory.mktemp("inspect")
    root.chmod(0o755)
    tasks, script = make_engine_env(root)
    run = root / "run"
    evolve_ok(run, tasks, script, "--max-expansions", "4", "--max-evals", "15", "--workers", "2", "--seed", "3")
    return run, script
