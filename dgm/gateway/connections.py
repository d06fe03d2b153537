"""What one connection may hold: deadlines on its reads and writes, and the count of each
job's open connections. A hostile agent that sends half a request, or headers and then a
body that never ends, would otherwise hold one of the gateway's threads for as long as it
likes; one job opening hundreds of them held hundreds of threads."""

from __future__ import annotations

import io
import logging
import socket
import threading
import time
from dataclasses import dataclass

log = logging.getLogger(__name__)

# The request line and headers are one small write from any HTTP client: 10 s covers a
# sandbox starved of CPU, and a client that has sent nothing by then is not going to.
HEADER_S = 10.0
# The largest body read (max_request_bytes, 4 MiB) crosses a Unix socket in milliseconds;
# 30 s still lets a loaded sandbox write it at 140 KB/s, a thousand times slower than that.
BODY_S = 30.0
# Above the 5 s after which httpx (the openai client) stops reusing an idle connection, so
# an honest client never sends a request on a connection the gateway is just closing.
IDLE_S = 15.0
# An answer (at most 4 MiB, see server.MAX_REPLY_BYTES) to a client that reads it takes
# milliseconds; one that does not read within a minute lets its thread go.
ANSWER_S = 60.0
LOG_EVERY_S = 60.0  # drops of one kind are logged as a warning at most this often, else at debug


@dataclass(frozen=True)
class Deadlines:
    """Seconds a connection may take: `header_s` for a request's line and headers (from the
    connection's start, or from the first byte of a later request on it), `body_s` for its
    body (from the end of the headers), `idle_s` between requests on a kept-alive
    connection, `answer_s` to take in an answer."""

    header_s: float = HEADER_S
    body_s: float = BODY_S
    idle_s: float = IDLE_S
    answer_s: float = ANSWER_S


DEFAULT_DEADLINES = Deadlines()


# What a connection is waiting for, each under its own deadline.
HEADERS, BODY, IDLE, ANSWER = "request headers", "request body", "next request", "answer"


class DeadlinePassed(Exception):
    """A connection's read or write did not end by its deadline (not a TimeoutError, which
    http.server would swallow without an answer)."""

    def __init__(self, phase: str, seconds: float):
        what = "the client did not take its answer" if phase == ANSWER else f"the {phase} did not arrive"
        super().__init__(f"{what} within {seconds:g} s")
        self.phase, self.seconds = phase, seconds


class Deadline:
    """One connection's current deadline and what it is for."""

    def __init__(self, phase: str, seconds: float):
        self.start(phase, seconds)

    def start(self, phase: str, seconds: float) -> None:
        self.phase, self.seconds, self.at = phase, seconds, time.monotonic() + seconds

    def left(self) -> float:
        left = self.at - time.monotonic()
        if left <= 0:
            raise DeadlinePassed(self.phase, self.seconds)
        return left


class DeadlineReader(io.RawIOBase):
    """The socket's reads, each bounded by what is left of the deadline (a total, not a
    per-read timeout, which a client sending a byte at a time would never reach)."""

    def __init__(self, sock: socket.socket, deadline: Deadline):
        self.sock, self.deadline = sock, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:
        self.sock.settimeout(self.deadline.left())
        try:
            return self.sock.recv_into(buffer)
        except TimeoutError:
            raise DeadlinePassed(self.deadline.phase, self.deadline.seconds) from None


class DeadlineWriter(io.BufferedIOBase):
    """The socket's writes (unbuffered, as http.server's own writer), under the deadline."""

    def __init__(self, sock: socket.socket, deadline: Deadline):
        self.sock, self.deadline = sock, deadline

    def writable(self) -> bool:
        return True

    def write(self, data: bytes | bytearray | memoryview) -> int:
        self.sock.settimeout(self.deadline.left())
        try:
            self.sock.sendall(data)
        except TimeoutError:
            raise DeadlinePassed(self.deadline.phase, self.deadline.seconds) from None
        with memoryview(data) as view:
            return view.nbytes

    def fileno(self) -> int:
        return self.sock.fileno()


class Connections:
    """The gateway's open connections, in all and per job token (a connection counts for the
    token of its latest request, from its headers until it closes); at most `cap` a token."""

    def __init__(self, cap: int):
        self.cap = cap
        self.lock = threading.Lock()  # guards everything below
        self.total = 0
        self.by_token: dict[str, int] = {}
        self.logged: dict[object, tuple[float, int]] = {}  # kind -> (its last warning, drops since)

    def opened(self) -> None:
        with self.lock:
            self.total += 1

    def closed(self, token: str | None) -> None:
        with self.lock:
            self.total -= 1
            if token is not None:
                self._release(token)

    def hold(self, token: str) -> bool:
        """Count one more connection for `token`; False (and nothing counted) over the cap."""
        with self.lock:
            held = self.by_token.get(token, 0)
            if held >= self.cap:
                return False
            self.by_token[token] = held + 1
            return True

    def release(self, token: str) -> None:
        with self.lock:
            self._release(token)

    def _release(self, token: str) -> None:
        left = self.by_token.pop(token) - 1
        if left:
            self.by_token[token] = left

    def open(self, token: str | None = None) -> int:
        """Connections open now: in all, or counted for `token`."""
        with self.lock:
            return self.total if token is None else self.by_token.get(token, 0)

    def dropped(self, kind: object, message: str, *args: object) -> None:
        """Log a dropped connection: a warning for the first of its `kind` in LOG_EVERY_S
        (saying how many went unwarned since the last), debug for the others."""
        now = time.monotonic()
        with self.lock:
            last, since = self.logged.get(kind, (None, 0))
            warn = last is None or now - last >= LOG_EVERY_S
            self.logged[kind] = (now, 0) if warn else (last, since + 1)
        if warn and since:
            message += f" (and {since} more like it since the last warning)"
        log.log(logging.WARNING if warn else logging.DEBUG, message, *args)
