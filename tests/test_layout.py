"""The layout promises of DESIGN.md: side-effect-free imports, a README line per module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["dgm", "seed_agent", "sandbox", "archive"]


@pytest.mark.parametrize("package", PACKAGES)
def test_import_has_no_side_effects(package, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-c", f"import {package}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    assert (proc.stdout, proc.stderr) == ("", "")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_every_module_has_a_readme_line(package):
    readme = (ROOT / package / "README.md").read_text()
    modules = sorted(p.name for p in (ROOT / package).glob("*.py"))
    assert modules, f"{package} has no modules"
    missing = [m for m in modules if f"`{m}`" not in readme]
    assert missing == [], f"{package}/README.md lacks a line for {missing}"
