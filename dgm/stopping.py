"""Ctrl-C and SIGTERM for long commands (`dgm evolve`, `dgm eval`): the first signal finishes
the running jobs and stops, the second stops at once."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass


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
