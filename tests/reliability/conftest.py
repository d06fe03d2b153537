"""Reliability fixtures: the engine tests' task folder and SCRIPTED upstream, and helpers
to run `dgm evolve` as a separate process (so it can be killed)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from sandbox.base import proc_stat
from tests.conftest import descendants
from tests.engine.conftest import engine_env, evolve_cmd  # noqa: F401 - shared fixture and helper


def start(cmd: list[str]) -> subprocess.Popen:
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _living_sandboxes(among: set[int] | None = None) -> list[str]:
    """bwrap processes alive: of the pids `among` if given, else all on the machine."""
    found = []
    for pid in map(str, sorted(among) if among is not None else filter(str.isdigit, os.listdir("/proc"))):
        try:
            state = proc_stat(pid)[0]
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError):
            continue
        if state != "Z" and cmdline and cmdline[0].endswith(b"bwrap"):  # zombies are dead already
            found.append(f"{pid}: {b' '.join(cmdline)[:120]!r}")
    return found


def sandbox_processes(wait_s: float = 3.0, among: set[int] | None = None) -> list[str]:
    """bwrap processes still alive after up to `wait_s` (a killed sandbox takes a moment to
    die): among the pids `among` (a killed driver's processes, a cluster's), or else all on
    the machine, which only a test marked `alone` may ask (any is a leak)."""
    deadline = time.monotonic() + wait_s
    while True:
        found = _living_sandboxes(among)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def kill_with_its_processes(proc: subprocess.Popen) -> set[int]:
    """SIGKILL `proc` and wait for it; returns the processes under it when it died (stopped
    first, so it starts none meanwhile), for `sandbox_processes(among=...)`."""
    proc.send_signal(signal.SIGSTOP)
    tree = descendants(proc.pid)
    proc.kill()
    proc.wait()
    return tree
