"""Calls in flight to an upstream that computes in this process, and the refusal of new
ones once it closes: what `LocalUpstream.close` waits on before it drops the server, and
when its thread governor may rebuild it (a call coming to an idle server)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .upstream import UpstreamError


class Calls:
    """Calls in flight, and whether new ones are refused. `on_idle` runs when a call comes
    while none is in flight, before it starts; other calls wait for it."""

    def __init__(self, on_idle: Callable[[], None] | None = None) -> None:
        self.count, self.closed, self.on_idle = 0, False, on_idle
        self._cond = threading.Condition()

    @contextmanager
    def hold(self) -> Iterator[None]:
        with self._cond:
            if self.closed:
                raise UpstreamError("the embedded model is shutting down", status=503, retryable=False)
            if self.count == 0 and self.on_idle is not None:
                self.on_idle()
            self.count += 1
        try:
            yield
        finally:
            with self._cond:
                self.count -= 1
                self._cond.notify_all()

    def close(self, wait_s: float) -> bool:
        """Refuse new calls; whether none is in flight within `wait_s`."""
        with self._cond:
            self.closed = True
            return self._cond.wait_for(lambda: self.count == 0, timeout=wait_s)
