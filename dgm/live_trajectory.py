"""A running agent's trajectory, followed from outside its job (`dgm serve`).

An agent flushes /out/trajectory.jsonl after each step, and /out is a folder on this
machine (the sandbox session's writable area) until its session closes. While an agent of
a job runs, the job's folder (RUN/work/job-N, which no sandbox can write) holds POINTER, a
small JSON file naming that folder: the worker writes it when the session starts and
removes it when the session ends. A reader follows it read-only and distrusts what it
finds there, which the agent wrote: the folder is opened without following a symlink, the
trajectory must be a regular file opened without following one, and only its last bytes
are read. (With the Ray executor a job's folder is on the node that runs it: there,
nothing is announced to the head's run folder.)"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from sandbox.errors import SandboxError
from sandbox.fs import open_dir

POINTER = "live-out.json"
TRAJECTORY = "trajectory.jsonl"
log = logging.getLogger(__name__)
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK


def job_folder(run_dir: Path, job_id: int) -> Path:
    """Where a job of the run keeps its files while it runs (the local executor's)."""
    return Path(run_dir) / "work" / f"job-{int(job_id)}"


@contextlib.contextmanager
def announced(pointer: Path | None, out: Path) -> Iterator[None]:
    """While the block runs, `pointer` (if any) names `out`, the host folder behind an
    agent's /out; it is removed after. One that cannot be written is logged and left out:
    the agent runs all the same, only not followed."""
    if pointer is None:
        yield
        return
    partial = pointer.with_name(pointer.name + ".partial")
    try:
        partial.write_text(json.dumps({"out": str(out)}))
        os.replace(partial, pointer)
    except OSError as exc:
        log.warning("cannot announce the running agent's trajectory at %s: %s", pointer, exc)
    try:
        yield
    finally:
        pointer.unlink(missing_ok=True)


def _out(folder: Path) -> Path | None:
    """The /out folder the job's pointer names (None: no agent of the job runs now)."""
    try:
        pointed = json.loads((folder / POINTER).read_text())
    except (OSError, ValueError):
        return None
    out = pointed.get("out") if isinstance(pointed, dict) else None
    return Path(out) if isinstance(out, str) and os.path.isabs(out) else None


def tail(folder: Path, limit: int) -> tuple[bytes, int] | None:
    """The last `limit` bytes of the trajectory of the agent running in job folder `folder`,
    and the file's whole size; None while no agent of the job runs. A trajectory not written
    yet, or anything but a regular file (a planted symlink, a FIFO), reads as empty."""
    out = _out(folder)
    if out is None:
        return None
    try:
        with open_dir(out, []) as dir_fd:
            fd = os.open(TRAJECTORY, _READ, dir_fd=dir_fd)
    except (OSError, SandboxError):  # the session ended meanwhile, nothing written yet, or a symlink
        return b"", 0
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return b"", 0
        start = max(st.st_size - limit, 0)
        os.lseek(fd, start, os.SEEK_SET)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(limit), st.st_size
    finally:
        os.close(fd)
