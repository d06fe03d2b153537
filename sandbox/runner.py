"""Run one command for a session: feed stdin, collect clipped output, enforce the wall
clock, CPU and disk watchdogs, kill the whole tree, and say which limit was hit.

`run()` drives a host process (bwrap and local backends); docker streams through its API
but shares `OutputCollector` and `LimitTracker`."""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from .cgroups import CgroupSet
from .spec import CLIP_MARKER, LIMIT_PRECEDENCE, ExecResult, Limits

POLL_S = 0.05
KILLED = -signal.SIGKILL  # the exit code of a command the sandbox had to kill


class OutputCollector:
    """stdout + stderr together up to `limit` bytes; past it, `overflowed` is set."""

    def __init__(self, limit: int):
        self.limit = limit
        self.parts: dict[str, bytearray] = {"stdout": bytearray(), "stderr": bytearray()}
        self.total = 0
        self.overflowed = False

    def add(self, stream: str, data: bytes) -> None:
        room = self.limit - self.total
        if len(data) > room:
            self.overflowed = True
            data = data[: max(room, 0)]
        self.parts[stream] += data
        self.total += len(data)

    def text(self, stream: str) -> str:
        out = self.parts[stream].decode("utf-8", "replace")
        if self.overflowed:
            out += CLIP_MARKER.format(limit=self.limit)
        return out


@dataclass
class Watch:
    """What is watched besides the clock and the output."""

    cgroup: CgroupSet | None = None
    disk_full: Callable[[], bool] | None = None
    disk_enforced: bool = True  # False: nothing stops writes at the cap, so the watchdog kills


def prlimit(limits: Limits, *, address_space: bool = True, nproc: bool = False) -> list[str]:
    """`prlimit ... --`: CPU seconds, file size and no core dumps; the address space unless a
    cgroup caps memory instead; the process count where the sandbox has a uid of its own."""
    args = [
        "prlimit",
        f"--cpu={int(limits.cpu_s)}:{int(limits.cpu_s) + 1}",
        f"--fsize={limits.disk_mb * 2**20}",
        "--core=0",
    ]
    if address_space:
        args.append(f"--as={limits.memory_mb * 2**20}")
    if nproc:
        args.append(f"--nproc={limits.pids}")
    return [*args, "--"]


class LimitTracker:
    """Counters at the start of a command, watchdog checks while it runs, and the verdict."""

    def __init__(self, watch: Watch, limits: Limits, timeout: float):
        self.watch, self.limits, self.timeout = watch, limits, timeout
        cg = watch.cgroup
        self.ooms0 = cg.oom_kills() if cg else 0
        self.forks0 = cg.fork_refusals() if cg else 0
        self.cpu0 = cg.cpu_seconds() if cg else 0.0
        self.disk_full_before = bool(watch.disk_full and watch.disk_full())
        self.start = time.monotonic()
        self.next_check = self.start
        self.hits: set[str] = set()

    def over(self, out: OutputCollector) -> bool:
        """True once the command must be stopped (a limit fired); call it often."""
        now = time.monotonic()
        if out.overflowed:
            self.hits.add("output")
        elif now - self.start > self.timeout:
            self.hits.add("wall")
        elif now >= self.next_check:
            self.next_check = now + 4 * POLL_S
            cg = self.watch.cgroup
            if cg and cg.cpu_seconds() - self.cpu0 > self.limits.cpu_s:
                self.hits.add("cpu")
            elif self.watch.disk_full and not self.watch.disk_enforced and self.watch.disk_full():
                self.hits.add("disk")
        return bool(self.hits)

    def result(self, code: int, out: OutputCollector) -> ExecResult:
        cg = self.watch.cgroup
        hits = self.hits
        if hits:
            code = KILLED
        if cg and cg.oom_kills() > self.ooms0:
            hits.add("memory")
        if cg and cg.fork_refusals() > self.forks0:
            hits.add("pids")
        if code in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
            hits.add("cpu")
        if code in (-signal.SIGXFSZ, 128 + signal.SIGXFSZ):
            hits.add("disk")
        if self.watch.disk_full and code != 0 and not self.disk_full_before and self.watch.disk_full():
            hits.add("disk")  # it failed after filling its writable area: ENOSPC, most likely
        limit = next((h for h in LIMIT_PRECEDENCE if h in hits), None)
        return ExecResult(
            code, out.text("stdout"), out.text("stderr"), "wall" in hits, time.monotonic() - self.start, limit
        )


def run(
    argv: list[str],
    tracker: LimitTracker,
    kill_tree: Callable[[subprocess.Popen[bytes]], None],
    *,
    stdin: bytes | None,
    env: dict[str, str],
    cwd: str | None = None,
    pass_fds: tuple[int, ...] = (),
) -> ExecResult:
    """Run `argv` as a host process watched by `tracker` (started just before); `kill_tree`
    kills it and all it started."""
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
        start_new_session=True,
        pass_fds=pass_fds,
    )
    assert proc.stdout is not None  # started with PIPE: never None
    assert proc.stderr is not None
    if stdin is not None:
        threading.Thread(target=_feed, args=(proc, stdin), daemon=True).start()
    out = OutputCollector(tracker.limits.output_bytes)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, "stdout")
    sel.register(proc.stderr, selectors.EVENT_READ, "stderr")
    open_streams = 2
    try:
        while (open_streams or proc.poll() is None) and not tracker.over(out):
            if not open_streams:
                time.sleep(POLL_S / 5)
                continue
            for key, _ in sel.select(timeout=POLL_S):
                data = os.read(key.fd, 1 << 16)
                if data:
                    out.add(key.data, data)
                else:
                    sel.unregister(key.fileobj)
                    open_streams -= 1
    finally:
        # The main process may be gone while others it started live on: kill the tree anyway.
        kill_tree(proc)
        code = proc.wait()
        sel.close()
        proc.stdout.close()
        proc.stderr.close()
    return tracker.result(code, out)


def _feed(proc: subprocess.Popen[bytes], data: bytes) -> None:
    assert proc.stdin is not None  # started with stdin=PIPE
    with contextlib.suppress(BrokenPipeError, OSError):
        proc.stdin.write(data)
    with contextlib.suppress(BrokenPipeError, OSError):
        proc.stdin.close()


def killpg(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
