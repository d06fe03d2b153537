"""An archive produced by a real scripted run (bwrap, gateway, SCRIPTED upstream), made
once for the inspection-command tests, which only read it (or copy it first); and Debian's
headless Chromium for the page tests."""

from __future__ import annotations

import os
import shutil

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


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        message = "Debian's chromium is not installed (apt-get install -y chromium)"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()
