"""An archive produced by a real scripted run (bwrap, gateway, SCRIPTED upstream), made
once for the inspection-command tests, which only read it (or copy it first)."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from dgm.benchmarks.loaders.taskdir import BUILTIN_DIR
from dgm.cli import main
from tests.engine.conftest import SCRIPT, TASKS, evolve_args


@pytest.fixture(scope="session")
def scripted_run(tmp_path_factory, availability):
    from tests.conftest import require

    require("bwrap", availability)
    root = tmp_path_factory.mktemp("inspect")
    root.chmod(0o755)
    tasks = root / "tasks"
    for task in TASKS:
        shutil.copytree(BUILTIN_DIR / task, tasks / task)
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    run = root / "run"
    result = CliRunner().invoke(
        main,
        evolve_args(
            run,
            tasks,
            f"scripted:{script}",
            "--max-expansions",
            "4",
            "--max-evals",
            "15",
            "--workers",
            "2",
            "--seed",
            "3",
        ),
    )
    assert result.exit_code == 0, result.output
    return run, script
