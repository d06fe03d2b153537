"""A run killed with SIGKILL leaves containers, mounts and cgroups behind; the next start
removes them."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sandbox import SandboxSpec, get_backend
from sandbox.base import proc_stat, sessions_root
from sandbox.cgroups import CgroupSet
from sandbox.variant import _unmount_under
from tests.conftest import require

CRASHER = textwrap.dedent(
    """
    import sys, time
    from sandbox import SandboxSpec, get_backend
    session = get_backend(sys.argv[1]).start(SandboxSpec())
    print(session.id, flush=True)
    time.sleep(600)
    """
)


@pytest.mark.alone  # another worker's sandbox start would sweep the area first
def test_leftovers_of_a_killed_run_are_swept_on_next_start(backend):
    proc = subprocess.Popen([sys.executable, "-c", CRASHER, backend.name], stdout=subprocess.PIPE, text=True)
    session_id = proc.stdout.readline().strip()
    assert session_id, "the crashing run did not start its session"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    area = sessions_root() / session_id
    assert area.exists()  # left behind by the kill
    if backend.name == "docker":
        from sandbox.docker_backend import LABEL

        def leftovers():
            found = backend.client().containers.list(all=True, filters={"label": LABEL})
            return [c for c in found if c.labels[LABEL].split(":")[1] == str(proc.pid)]

        assert leftovers()
    time.sleep(0.1)
    with backend.start(SandboxSpec()) as session:
        assert session.exec("echo fresh").stdout == "fresh\n"
    assert not area.exists()
    assert CgroupSet.existing(f"dgm-{session_id}") is None
    if backend.name == "docker":
        assert leftovers() == []


def test_a_killed_variant_build_leaves_nothing_mounted_in_its_next_build(tmp_path):
    """A variant build killed mid-way leaves its chroot's /proc mounted in the partial
    rootfs; the next build unmounts it before removing the folder (never deleting through
    a mount)."""
    partial = tmp_path / "x-polyglot.partial"
    (partial / "proc").mkdir(parents=True)
    subprocess.run(["mount", "-t", "proc", "proc", str(partial / "proc")], check=True)
    try:
        _unmount_under(partial)
    finally:
        mounted = str(partial / "proc") in Path("/proc/self/mounts").read_text()
        if mounted:
            subprocess.run(["umount", "--lazy", str(partial / "proc")], check=False)
    assert not mounted


@pytest.mark.alone  # another worker's sandbox start would sweep the area first
def test_the_area_of_a_killed_run_not_yet_reaped_is_swept(bwrap):
    """A driver killed under a parent that has not collected its exit status (a zombie: a
    run under a reaper that does not reap) is dead; its area is swept like any other."""
    proc = subprocess.Popen([sys.executable, "-c", CRASHER, "bwrap"], stdout=subprocess.PIPE, text=True)
    session_id = proc.stdout.readline().strip()
    proc.send_signal(signal.SIGKILL)
    deadline = time.monotonic() + 10
    while proc_stat(proc.pid)[0] != "Z":  # not reaped
        assert time.monotonic() < deadline, "the killed driver did not become a zombie"
        time.sleep(0.05)
    area = sessions_root() / session_id
    assert area.exists()
    with bwrap.start(SandboxSpec()) as session:
        assert session.exec("echo fresh").stdout == "fresh\n"
    assert not area.exists()
    proc.wait()


def test_a_sandbox_closed_while_the_sweep_lists_them_is_passed_over(availability):
    """Another run's sandbox that is removed between the daemon's list of containers and
    the sweep's look at it (its run closed it) is not an error: the sweep goes on (under
    make test's workers a grading run failed with NotFound on its first start)."""
    require("docker", availability)
    backend = get_backend("docker")
    api = backend.client().api
    inspect = api.inspect_container
    with backend.start(SandboxSpec()) as session:
        closed = []

        def closed_meanwhile(container, *args, **kwargs):
            if not closed:  # the other run closes its sandbox just now
                closed.append(session.close())
            return inspect(container, *args, **kwargs)

        api.inspect_container = closed_meanwhile
        try:
            backend.sweep_stale()  # other workers' dead runs' containers may be swept too
        finally:
            api.inspect_container = inspect
        assert closed
