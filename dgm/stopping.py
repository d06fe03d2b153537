"""Ctrl-C and SIGTERM for long commands (`dgm evolve`, `dgm eval`): the first signal finishes
the running jobs and stops, the second stops at once; and the way out of a process whose
embedded model still decodes a call no one waits for (`leave`)."""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sandbox.live import LIVE

log = logging.getLogger(__name__)


@dataclass
class StopRequest:
    """Whether a stop was asked for, why, and whether at once. Set from a signal handler,
    read by the command's loop between steps."""

    reason: str | None = None
    force: bool = False

    def request(self, reason: str, force: bool = False) -> None:
        """The first reason is kept, unless this request is the first to force the stop."""
        if self.reason is None or (force and not self.force):
            self.reason = reason
        self.force = self.force or force


@contextmanager
def two_stage(request: Callable[[str, bool], None], note: Callable[[str], None]) -> Iterator[None]:
    """While inside: SIGINT/SIGTERM call `request(reason, False)` (finish running jobs, start
    none) after saying so through `note`; a second one calls `request(reason, True)` (stop at
    once). The previous handlers come back after."""
    received: list[str] = []

    def on_signal(signum: int, _frame: object) -> None:
        name = signal.Signals(signum).name
        if received:
            request(f"{name} received again: stopping now", True)
        else:
            note(f"{name} received: finishing running jobs (again to stop at once)")
            request(f"{name} received", False)
        received.append(name)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def leave(upstream: object, code: int = 0, message: str | None = None) -> None:
    """End the process now if `upstream` still decodes calls in it: the embedded model after a
    stop at once, whose calls for the jobs handed back cannot be cancelled. The interpreter's
    exit would run the runtime's C++ static destructors under its decoding thread (a
    segfault); `os._exit` runs no code at all, and the kernel ends every thread at once. What
    exit would have done that matters is done first: sandboxes still open are closed, logs
    and output flushed (the archive and the run's folders are closed and removed by then);
    `message` goes to stderr last."""
    decoding = getattr(upstream, "decoding", 0)
    if not decoding:
        return
    log.warning("the embedded model still decodes %d call(s) of stopped jobs: exiting without them", decoding)
    LIVE.close_all()
    logging.shutdown()
    if message:
        sys.stderr.write(message + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
