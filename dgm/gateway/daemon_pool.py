"""Upstream calls on daemon threads, at most `max_workers` at once.

`concurrent.futures.ThreadPoolExecutor` joins its threads when the interpreter exits. A call
to the embedded model cannot be cancelled, so after a stopped run had recorded everything
and said so, its process stayed alive (and kept two cores busy) until the calls its killed
jobs had left decoding ended: minutes, and a second Ctrl-C. Here a call runs on a daemon
thread, which exit abandons; the gateway's close still waits its grace for calls in flight,
so that what they cost is recorded."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any


class DaemonPool:
    def __init__(self, max_workers: int, name: str):
        self.slots = threading.BoundedSemaphore(max_workers)
        self.name = name
        self.numbers = itertools.count()
        self.lock = threading.Lock()  # guards closed and waiting
        self.closed = False
        self.waiting: set[Future] = set()  # submitted, not yet started

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        future: Future = Future()
        with self.lock:
            if self.closed:
                raise RuntimeError("cannot submit a call after the pool was shut down")
            self.waiting.add(future)
        thread = threading.Thread(target=self._run, args=(future, fn, args), daemon=True)
        thread.name = f"{self.name}_{next(self.numbers)}"
        thread.start()
        return future

    def _run(self, future: Future, fn: Callable[..., Any], args: tuple) -> None:
        with self.slots:
            with self.lock:
                self.waiting.discard(future)
            if not future.set_running_or_notify_cancel():
                return  # cancelled while it waited for a slot
            try:
                result = fn(*args)
            except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
                future.set_exception(exc)
            else:
                future.set_result(result)

    def shutdown(self, cancel_futures: bool = False) -> None:
        """No more calls; with `cancel_futures`, calls still waiting for a slot never start.
        Calls under way are not waited for."""
        with self.lock:
            self.closed = True
            waiting, self.waiting = self.waiting, set()
        if cancel_futures:
            for future in waiting:
                future.cancel()
