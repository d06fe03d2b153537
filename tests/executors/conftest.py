"""A real local Ray cluster on loopback for the executor tests: a head (no job slots) and
worker nodes started with `ray start`, as a user would, each with its own node cache
(DGM_RAY_CACHE) so the tests can see what each node fetched. Torn down by killing exactly
the processes of this cluster (its own temp dir), never other Ray instances."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import descendants, require
from tests.engine.conftest import engine_env  # noqa: F401 - shared fixture
from tests.gateway.conftest import make_gateway  # noqa: F401 - shared fixture

RAY = Path(sys.executable).with_name("ray")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pids(pattern: str) -> list[int]:
    """Processes whose command line or environment contains `pattern`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            seen = Path(f"/proc/{pid}/cmdline").read_bytes() + Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if pattern.encode() in seen.replace(b"\0", b" ") and int(pid) != os.getpid():
            found.append(int(pid))
    return found


class LocalRayCluster:
    def __init__(self, root: Path):
        self.root = root
        self.temp = Path(tempfile.mkdtemp(prefix="dgmray-"))  # short: Ray's socket paths must fit
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        # Every process of this cluster inherits the marker, so teardown finds them all.
        self.env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "DGM_TEST_RAY_CLUSTER": str(self.temp)}

    def _ray(self, *args: str, env: dict | None = None) -> None:
        result = subprocess.run(
            [str(RAY), "start", "--node-ip-address", "127.0.0.1", "--temp-dir", str(self.temp), *args],
            env=env or self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stdout + result.stderr

    def start_head(self) -> None:
        self._ray("--head", "--port", str(self.port), "--num-cpus", "0", "--include-dashboard", "false")

    def add_worker(self, name: str, slots: int = 1) -> Path:
        """A worker node with `slots` job slots; returns its node cache."""
        cache = self.root / name
        resources = json.dumps({"dgm_bwrap": slots, f"test_{name}": 1})
        env = {**self.env, "DGM_RAY_CACHE": str(cache)}
        self._ray("--address", self.address, "--num-cpus", str(slots), "--resources", resources, env=env)
        return cache

    def kill_worker(self, name: str) -> set[int]:
        """SIGKILL a worker node's raylet: the node dies, with every job on it. Returns the
        processes under it when it died (stopped first, so it starts none meanwhile)."""
        raylets = [
            p
            for p in _pids(f"test_{name},1")
            if p in self.processes() and Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")[0].endswith(b"/raylet")
        ]
        assert raylets, f"no raylet found for {name}"
        for pid in raylets:
            os.kill(pid, signal.SIGSTOP)
        tree = descendants(*raylets)
        for pid in raylets:
            os.kill(pid, signal.SIGKILL)
        return tree

    def processes(self) -> set[int]:
        """This cluster's processes (they carry its marker) and everything under them: the
        jobs' sandboxes, which another test's cluster or run never are."""
        own = set(_pids(f"DGM_TEST_RAY_CLUSTER={self.temp}"))
        return own | descendants(*own)

    def stop(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for pid in _pids(f"DGM_TEST_RAY_CLUSTER={self.temp}"):
                with contextlib.suppress(ProcessLookupError):  # it ended by itself meanwhile
                    os.kill(pid, sig)
            time.sleep(1)


@pytest.fixture
def ray_cluster(tmp_path, availability):
    """A head and two worker nodes (w1, w2), one job slot each."""
    require("bwrap", availability)
    cluster = LocalRayCluster(tmp_path / "nodes")
    try:
        cluster.start_head()
        cluster.caches = {name: cluster.add_worker(name) for name in ("w1", "w2")}
        yield cluster
    finally:
        cluster.stop()
