"""Shared fixtures, and the machine's sharing between pytest-xdist workers (`make test`
runs the test files on several): a test marked `alone` has the machine to itself (no
other worker runs a test meanwhile), for a timing or a check of every sandbox on it."""

from __future__ import annotations

import fcntl
import os
import tarfile
from pathlib import Path

import pytest

from archive import Archive
from sandbox import get_backend
from sandbox.base import proc_stat


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Under xdist, each test (its module fixtures' setup and teardown included) holds the
    machine shared, and an `alone` test holds it exclusively. Writers first: an `alone`
    test holds the turnstile while it waits, so the other workers' next tests queue behind
    it instead of keeping it out."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return (yield)
    folder = item.config._tmp_path_factory.getbasetemp().parent  # shared by all workers
    alone = item.get_closest_marker("alone") is not None
    with open(folder / "turnstile.lock", "a") as turnstile, open(folder / "machine.lock", "a") as machine:
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        fcntl.flock(machine, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        try:
            return (yield)
        finally:
            fcntl.flock(machine, fcntl.LOCK_UN)
            fcntl.flock(turnstile, fcntl.LOCK_UN)


def pytest_collection_modifyitems(config, items):
    """The order `make test`'s workers take the test files in (under --dist loadfile and
    --no-loadscope-reorder, a worker that is free takes the next file): the files marked
    `minutes` first, longest first, so that no worker starts a long file when the others
    are nearly done; and files with an `alone` test last, since an alone test waits for
    every test running on the other workers to end, and those are short at the end. Stable:
    within a file, and among unmarked files, the collection order stays."""
    alone: set[str] = set()
    minutes: dict[str, float] = {}
    for item in items:
        path = item.nodeid.split("::")[0]
        if item.get_closest_marker("alone") is not None:
            alone.add(path)
        marker = item.get_closest_marker("minutes")
        minutes[path] = max(minutes.get(path, 0.0), marker.args[0] if marker else 0.0)

    def order(item) -> tuple[bool, float]:
        path = item.nodeid.split("::")[0]
        return path in alone, -minutes[path]

    items.sort(key=order)


def descendants(*roots: int) -> set[int]:
    """The processes under `roots`: their children, theirs, and so on."""
    children: dict[int, list[int]] = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            parent = int(proc_stat(entry)[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, todo = set(), list(roots)
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


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
    """Fail in CI, skip (with the reason shown) elsewhere, when a backend cannot run here.
    `make check` (DGM_TEST_TIER=check) runs no isolating sandbox at all: `make test` does."""
    if os.environ.get("DGM_TEST_TIER") == "check" and name != "unsandboxed":
        pytest.skip(f"make check runs no {name} sandbox (make test does)")
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
