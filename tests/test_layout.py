"""The layout promises: side-effect-free imports, a README line per module, one-way
package imports, a seed agent that needs nothing of the engine."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from tests.conftest import require

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


def _imports(path: Path, module: str) -> set[str]:
    """Every module `path` imports, anywhere in it (function bodies and TYPE_CHECKING blocks too)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level:
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
            found |= {f"{base}.{node.module}"} if node.module else {f"{base}.{a.name}" for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def _unit(module: str) -> str:
    """The package a module belongs to for this test: dgm's subpackages (and top-level modules)
    one by one, the other top-level packages whole."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "dgm" and len(parts) > 1 else parts[0]


def package_graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "builtin" in path.relative_to(ROOT).parts:  # task repositories: data, not code
                continue
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            for target in _imports(path, module):
                if target.split(".")[0] in PACKAGES and _unit(module) != _unit(target):
                    graph.add_edge(_unit(module), _unit(target))
    return graph


def test_no_two_packages_import_each_other():
    graph = package_graph()
    assert ("dgm.executors", "dgm.engine") in graph.edges  # executors implement the engine's job protocol
    assert sorted(nx.simple_cycles(graph)) == []


def test_make_evolve_brings_up_the_base_sandbox_only_and_make_test_the_polyglot_variant_too():
    """A new user's first result should not wait minutes for toolchains the built-in suite
    never runs; the tests run them (dry runs: `make -n`)."""
    commands = {
        target: subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        for target in ("evolve", "test")
    }
    assert "scripts/sandbox-up.sh .venv\n" in commands["evolve"]
    assert "polyglot" not in commands["evolve"]
    assert "scripts/sandbox-up.sh .venv polyglot\n" in commands["test"]


def test_make_check_starts_no_sandbox_and_skips_the_tests_that_need_one(availability, monkeypatch):
    """The inner loop: lint, types and the tests that need no sandbox, with nothing to start
    (no dockerd, no image build) and so no root; `make test` runs everything."""
    check = subprocess.run(["make", "-n", "check"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "sandbox-up" not in check
    assert "DGM_TEST_TIER=check" in check
    assert "mypy --strict" in check
    monkeypatch.setenv("DGM_TEST_TIER", "check")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="make check runs no bwrap sandbox"):
        require("bwrap", availability)
    require("unsandboxed", availability)  # the one backend that needs nothing


def test_the_seed_agent_imports_only_the_standard_library_openai_and_itself():
    """Agent code runs in a sandbox with dgm's runtime beside it, never with dgm's packages:
    a seed that imported the engine, the archive or the sandbox would work only on the host."""
    allowed = set(sys.stdlib_module_names) | {"openai", "httpx", "httpx2", "seed_agent"}  # httpx(2): openai's own
    found = {}
    for path in (ROOT / "seed_agent").rglob("*.py"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for target in _imports(path, module):
            if target.split(".")[0] not in allowed:
                found.setdefault(target, []).append(str(path.relative_to(ROOT)))
    assert found == {}
