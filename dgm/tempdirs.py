"""Temporary folders named for the process that owns them, and the sweep of those whose
owner is dead.

A process that dies without its clean-up (SIGKILL, a crash, a segfault) leaves in the temp
directory what it made there: the gateway's socket folder, the embedded model's private
folder, a grader's cache. Each is made under a name that carries its owner's pid and start
time (`PREFIX<pid>-<start>-<random>`, `owned_prefix`); `sweep` removes those whose owner is
gone (a pid that now runs another process counts as gone: its start time differs), and
never one whose owner runs or that belongs to another user. Sandboxes sweep their session
areas the same way (`sandbox/base.py`)."""

from __future__ import annotations

import logging
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

GATEWAY = "dgm-gw-"
EMBEDDED = "dgm-embedded-"
GRADE = "dgm-grade-"
KINDS = (GATEWAY, EMBEDDED, GRADE)
_OWNED = re.compile(rf"^({'|'.join(map(re.escape, KINDS))})(\d+)-(\d+)-[a-z0-9_]+$")


def start_time(pid: int) -> int | None:
    """When `pid` started (clock ticks after boot, /proc/PID/stat field 22); None when it
    does not run (a zombie is dead: its exit status only waits to be collected)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] == "Z" else int(fields[19])


def owned_prefix(kind: str) -> str:
    """The name prefix of a folder of `kind` owned by this process."""
    pid = os.getpid()
    return f"{kind}{pid}-{start_time(pid) or 0}-"


def make(kind: str) -> Path:
    """A fresh private folder (mode 0700) in the temp directory, owned by this process."""
    return Path(tempfile.mkdtemp(prefix=owned_prefix(kind)))


def owner(name: str) -> tuple[int, int] | None:
    """The (pid, start time) an owned folder's name carries; None for any other name."""
    match = _OWNED.match(name)
    return (int(match.group(2)), int(match.group(3))) if match else None


def remove(path: Path) -> None:
    """Remove a folder and everything in it; what cannot be removed is logged."""

    def failed(_fn, where: str, exc_info) -> None:
        if not isinstance(exc_info[1], FileNotFoundError):  # else: another sweep took it first
            log.warning("could not remove %s: %s", where, exc_info[1])

    shutil.rmtree(path, onerror=failed)


def sweep(folder: str | Path | None = None) -> list[Path]:
    """Remove the owned folders in `folder` (default: the temp directory) whose owner is dead,
    and only this user's. Returns what was removed."""
    root = Path(folder or tempfile.gettempdir())
    removed = []
    try:
        entries = list(os.scandir(root))
    except FileNotFoundError:
        return removed
    for entry in entries:
        found = owner(entry.name)
        if found is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except FileNotFoundError:  # its owner removed it meanwhile
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
            continue
        pid, started = found
        if start_time(pid) == started:
            continue
        log.info("removing %s, left by process %d, which is gone", entry.path, pid)
        remove(Path(entry.path))
        removed.append(Path(entry.path))
    return removed
