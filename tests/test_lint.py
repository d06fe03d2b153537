"""The lint rules hold in CI as they do in `make lint`: ruff (pinned in pyproject.toml, with
the pytest, ruff-specific and complexity rules) finds nothing, every file is formatted, and
mypy finds nothing in the packages held to its strict mode."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUFF = Path(sys.executable).parent / "ruff"
STRICT = ["archive", "sandbox"]  # type-checked with --strict (pyproject.toml's [tool.mypy])


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]], ids=["check", "format"])
def test_ruff_finds_nothing(args):
    if not RUFF.exists():
        pytest.fail(f"ruff is not installed beside {sys.executable}: install the dev extras (make test does)")
    proc = subprocess.run([str(RUFF), *args], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


def test_mypy_finds_nothing_in_the_strict_packages(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path), *STRICT],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
