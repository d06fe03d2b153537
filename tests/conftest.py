"""Shared fixtures."""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

import pytest

from archive import Archive
from sandbox import get_backend


@pytest.fixture
def archive(tmp_path: Path):
    with Archive.for_run(tmp_path / "run", create=True) as ar:
        yield ar


@pytest.fixture(scope="session")
def availability():
    """name -> Availability of that sandbox backend, checked once per test session."""
    cache: dict[str, object] = {}

    def check(name: str):
        if name not in cache:
            cache[name] = get_backend(name).availability()
        return cache[name]

    return check


def require(name: str, availability) -> None:
    """Fail in CI, skip (with the reason shown) elsewhere, when a backend cannot run here."""
    found = availability(name)
    if not found.ok:
        message = f"sandbox backend {name} does not work here: {found.detail}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def bwrap(availability):
    """The bubblewrap backend (real sandboxes for the gateway and agent tests)."""
    require("bwrap", availability)
    return get_backend("bwrap")


POLYGLOT_ARCHIVE = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "polyglot-benchmark.tar.gz"


@pytest.fixture(scope="session")
def polyglot_benchmark(tmp_path_factory) -> Path:
    """Aider's polyglot benchmark (../shared/benchmarks), unpacked once per test session."""
    if not POLYGLOT_ARCHIVE.exists():
        pytest.fail(f"the polyglot benchmark is not at {POLYGLOT_ARCHIVE} (see ../shared/benchmarks/README)")
    root = tmp_path_factory.mktemp("polyglot")
    with tarfile.open(POLYGLOT_ARCHIVE) as tar:
        tar.extractall(root, filter="data")
    return root  # the archive holds the language folders at its top
