"""Reliability fixtures: the engine tests' task folder and SCRIPTED upstream, and helpers
to run `dgm evolve` as a separate process (so it can be killed)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from tests.engine.conftest import engine_env, evolve_cmd  # noqa: F401 - shared fixture and helper


def start(cmd: list[str]) -> subprocess.Popen:
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _living_sandboxes() -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError):
            continue
        if state != "Z" and cmdline and cmdline[0].endswith(b"bwrap"):  # zombies are dead already
            found.append(f"{pid}: {b' '.join(cmdline)[:120]!r}")
    return found


def sandbox_processes(wait_s: float = 3.0) -> list[str]:
    """bwrap processes still alive after up to `wait_s` (tests run one at a time, so any
    is a leak); a killed sandbox takes a moment to die."""
    deadline = time.monotonic() + wait_s
    while True:
        found = _living_sandboxes()
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)
