"""A run killed with SIGKILL leaves containers, mounts and cgroups behind; the next start
removes them."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

from sandbox import SandboxSpec
from sandbox.base import sessions_root
from sandbox.cgroups import CgroupSet

CRASHER = textwrap.dedent(
    """
    import sys, time
    from sandbox import SandboxSpec, get_backend
    session = get_backend(sys.argv[1]).start(SandboxSpec())
    print(session.id, flush=True)
    time.sleep(600)
    """
)


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
