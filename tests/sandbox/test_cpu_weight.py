"""Sandboxes run at a low CPU weight (cgroups: `dgm-sandboxes`, shares 128 against 1024),
so a test suite in a sandbox never takes a core from the embedded model's decoding threads."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from sandbox import SandboxSpec
from sandbox.cgroups import CGROUP_ROOT, LOW_CPU_GROUP, LOW_SHARES, CgroupSet


def _cpu_group(proc_cgroup: str) -> str:
    """The group of the `cpu` controller in a /proc/PID/cgroup text."""
    for line in proc_cgroup.splitlines():
        _, controllers, rel = line.split(":", 2)
        if "cpu" in controllers.split(","):
            return rel
    raise AssertionError(f"no cpu controller in {proc_cgroup!r}")


def _running_in(group: Path, session) -> list[int]:
    """The pids in `group` while the sandbox runs a command (bwrap hides the host's cgroup
    paths from inside: it has a cgroup namespace of its own)."""
    worker = threading.Thread(target=session.exec, args=("sleep 3",))
    worker.start()
    try:
        deadline = time.monotonic() + 2.5
        while time.monotonic() < deadline:
            if pids := (group / "cgroup.procs").read_text().split():
                return [int(p) for p in pids]
            time.sleep(0.05)
        return []
    finally:
        worker.join()


def test_a_sandboxed_command_runs_in_the_low_weight_group(backend):
    with backend.start(SandboxSpec()) as session:
        if backend.name == "bwrap":
            if session.cgroup is None and not os.environ.get("CI"):  # CI runs as root: it must have one
                pytest.skip("no writable cgroup tree here (not root): sandboxes are only niced")
            cpu = session.cgroup.dirs["cpu"]
            assert cpu.parent == CGROUP_ROOT / "cpu" / LOW_CPU_GROUP, cpu
            assert _running_in(cpu, session), "the command did not run in the session's cpu group"
            stat = session.exec("cat /proc/self/stat")  # niced too, for hosts where no cgroup can be made
            assert int(stat.stdout.rsplit(")", 1)[1].split()[16]) == 19, stat.stdout
        else:
            groups = session.exec("cat /proc/self/cgroup")
            assert _cpu_group(groups.stdout).startswith(f"/{LOW_CPU_GROUP}/"), groups.stdout
    assert int((CGROUP_ROOT / "cpu" / LOW_CPU_GROUP / "cpu.shares").read_text()) == LOW_SHARES


def test_a_session_group_is_removed_with_its_cpu_part(backend):
    session = backend.start(SandboxSpec())
    with session:
        assert session.exec("true").exit_code == 0
        cgroup = getattr(session, "cgroup", None)
        dirs = [d for d in (cgroup.unique_dirs() if isinstance(cgroup, CgroupSet) and cgroup.owned else [])]
    for d in dirs:
        assert not Path(d).exists(), d
    if backend.name == "bwrap":
        assert any(LOW_CPU_GROUP in str(d) for d in dirs), dirs
