"""A job that holds connections open: the per-job cap (checked before the body is read), the
deadlines on headers, bodies and idle kept-alive connections, and the count of open
connections, which returns to zero however a connection ends. Real sockets, real gateway."""

from __future__ import annotations

import contextlib
import json
import logging
import selectors
import socket
import time
from collections.abc import Callable

from dgm.gateway import Deadlines, Limits
from tests.gateway.conftest import HELLO

CAP = 8
FAST = Deadlines(header_s=1.0, body_s=2.5, idle_s=1.0, answer_s=5.0)
MARGIN_S = 3.0  # generous: a loaded machine is late, never early


def head(token: str, length: int, extra: str = "") -> bytes:
    return (
        f"POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\n{extra}\r\n"
    ).encode()


def request(token: str, extra: str = "") -> bytes:
    body = json.dumps({"model": "default", "messages": [{"role": "user", "content": "hi"}]}).encode()
    return head(token, len(body), extra) + body


class Watch:
    """Raw connections this test opened: what each was answered, and when it was closed."""

    def __init__(self, gw):
        self.path, self.selector = str(gw.socket_path), selectors.DefaultSelector()
        self.sent: dict[socket.socket, float] = {}
        self.got: dict[socket.socket, bytes] = {}
        self.closed: dict[socket.socket, float] = {}

    def open(self, data: bytes) -> socket.socket:
        sock, sent = socket.socket(socket.AF_UNIX), time.monotonic()  # before the gateway can see it
        sock.connect(self.path)
        sock.sendall(data)
        sock.setblocking(False)
        self.sent[sock], self.got[sock] = sent, b""
        self.selector.register(sock, selectors.EVENT_READ)
        return sock

    def wait(self, seconds: float, enough: Callable[[], bool] = lambda: False) -> None:
        """Read answers until every connection is closed, `enough()`, or `seconds` pass."""
        end = time.monotonic() + seconds
        while self.selector.get_map() and not enough() and (left := end - time.monotonic()) > 0:
            for key, _ in self.selector.select(left):
                self.read(key.fileobj)

    def read(self, sock: socket.socket) -> None:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:  # closed with our unread body in its buffer
            chunk = b""
        if chunk:
            self.got[sock] += chunk
            return
        self.closed[sock] = time.monotonic()
        self.selector.unregister(sock)
        sock.close()

    def status(self, sock: socket.socket) -> int | None:
        line = self.got[sock].split(b"\r\n", 1)[0].split()
        return int(line[1]) if len(line) > 1 else None

    def statuses(self) -> list[int | None]:
        return [self.status(s) for s in self.closed]

    def close(self) -> None:
        for sock in list(self.selector.get_map().values()):
            self.selector.unregister(sock.fileobj)
            sock.fileobj.close()


def exchange(gw, data: bytes) -> bytes:
    """Send `data` in one write on a fresh connection; everything answered until it closes."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(MARGIN_S)
        sock.connect(str(gw.socket_path))
        sock.sendall(data)
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                answer += chunk
    return answer


def until(condition: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        time.sleep(0.01)
    return condition()


def ask(client, content: str = "hi"):
    return client.chat.completions.create(model="default", messages=[{"role": "user", "content": content}])


def test_a_job_holding_connections_is_capped_before_its_bodies_and_each_is_closed_by_the_body_deadline(
    make_gateway, openai_client, caplog
):
    caplog.set_level(logging.DEBUG, logger="dgm.gateway")
    gw = make_gateway(HELLO, limits=Limits(job_connections=CAP), deadlines=FAST)
    hog, other = gw.issue_token(), gw.issue_token()
    other_client = openai_client(gw, other)  # made first: importing openai is slow on a loaded machine
    watch = Watch(gw)
    try:
        # 300 connections with complete headers claiming 1 MB and 7 bytes of it: none ever ends.
        socks = [watch.open(head(hog, 1_000_000) + b'{"model') for _ in range(300)]
        refused = len(socks) - CAP
        watch.wait(FAST.body_s, enough=lambda: watch.statuses().count(429) == refused)
        # The refusals came before any held connection's deadline: no body was waited for.
        assert sorted(watch.statuses()) == [429] * refused
        assert gw.connections.open(hog) == CAP
        answer = next(watch.got[s] for s in watch.closed)
        error = json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]
        assert error["type"] == error["code"] == "too_many_connections"
        assert f"already has {CAP} connections open" in error["message"]
        assert b"Connection: close" in answer

        # Meanwhile another job is answered at once, and the hog's ordinary call is refused.
        started = time.monotonic()
        assert ask(other_client).choices[0].message.content == "hello from the script"
        assert time.monotonic() - started < 1.0
        assert gw.connections.open(hog) == CAP
        other_client.close()
        refusal = exchange(gw, request(hog))  # one write: the refusal cannot cut its body short
        assert refusal.startswith(b"HTTP/1.1 429")
        assert b"connections open" in refusal

        watch.wait(FAST.body_s + MARGIN_S)
        assert sorted(watch.statuses()) == [408] * CAP + [429] * refused
        for sock, closed in watch.closed.items():
            if watch.status(sock) == 408:
                assert b"request body did not arrive within 2.5 s" in watch.got[sock]
                assert FAST.body_s <= closed - watch.sent[sock] < FAST.body_s + MARGIN_S
    finally:
        watch.close()
    assert gw.connections.open(hog) == 0
    assert until(lambda: gw.connections.open() == 0, MARGIN_S)
    with openai_client(gw, hog) as client:  # its connections gone, the job calls again
        assert ask(client).choices[0].message.content == "hello from the script"
    assert gw.upstream.calls == 2
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert sum("refused a connection of job None: over its cap" in m for m in warnings) == 1  # not 293
    assert sum("request body did not arrive" in m for m in warnings) == 1  # not 8


def test_a_connection_that_never_finishes_its_headers_is_closed_by_the_header_deadline(make_gateway):
    gw = make_gateway(HELLO, deadlines=FAST)
    token = gw.issue_token()
    watch = Watch(gw)
    try:
        silent = watch.open(b"")
        line = watch.open(b"POST /v1/chat/compl")
        headers = watch.open(head(token, 100)[:-20])
        trickle = watch.open(b"POST /v1/chat/completions HTTP/1.1\r\nX-Slow: ")
        # A byte every 0.1 s: each read is quick, only a deadline on all of them ends it.
        while trickle not in watch.closed and time.monotonic() < watch.sent[trickle] + FAST.header_s + MARGIN_S:
            watch.wait(0.1)
            if trickle not in watch.closed:
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # closed just now
                    trickle.send(b"a")
        watch.wait(FAST.header_s + MARGIN_S)
        assert set(watch.closed) == {silent, line, headers, trickle}
        for sock, closed in watch.closed.items():
            assert watch.status(sock) == 408
            assert b"request headers did not arrive within 1 s" in watch.got[sock]
            assert FAST.header_s <= closed - watch.sent[sock] < FAST.header_s + MARGIN_S
    finally:
        watch.close()
    assert until(lambda: gw.connections.open() == 0, MARGIN_S)
    assert gw.upstream.calls == 0


def test_an_idle_kept_alive_connection_is_closed_by_the_idle_deadline(make_gateway):
    gw = make_gateway(HELLO, deadlines=FAST)
    token = gw.issue_token()
    watch = Watch(gw)
    try:
        sock = watch.open(request(token))
        watch.wait(MARGIN_S, enough=lambda: b"hello from the script" in watch.got[sock])
        assert watch.status(sock) == 200
        assert sock not in watch.closed
        watch.got[sock], asked = b"", time.monotonic()
        sock.send(request(token))  # kept alive: a second request on the same connection
        watch.wait(MARGIN_S, enough=lambda: b"hello from the script" in watch.got[sock])
        assert watch.status(sock) == 200
        assert gw.connections.open(token) == 1
        watch.wait(FAST.idle_s + MARGIN_S)
        assert FAST.idle_s <= watch.closed[sock] - asked < FAST.idle_s + MARGIN_S
        assert watch.got[sock].count(b"HTTP/1.1") == 1  # no answer to a request never made
    finally:
        watch.close()
    assert gw.connections.open(token) == 0
    assert gw.connections.open() == 0


def test_the_count_returns_to_zero_however_connections_end(make_gateway, openai_client):
    gw = make_gateway(HELLO, limits=Limits(job_connections=CAP), deadlines=FAST)
    token = gw.issue_token()
    watch = Watch(gw)
    try:
        replied = watch.open(request(token, "Connection: close\r\n"))
        timed_out = watch.open(head(token, 1000) + b"{")
        left = watch.open(head(token, 1000) + b'{"mess')
        left_early = watch.open(b"POST /v1/chat/completions HTTP/1.1\r\n")
        bad_token = watch.open(head("not-a-token", 1_000_000))
        watch.wait(MARGIN_S, enough=lambda: replied in watch.closed and bad_token in watch.closed)
        assert until(lambda: gw.connections.open(token) == 2, MARGIN_S)  # timed_out and left
        for sock in (left, left_early):  # the client leaves mid-body, mid-headers
            watch.selector.unregister(sock)
            sock.close()
        with openai_client(gw, token) as client:
            for _ in range(3):
                ask(client)
        watch.wait(FAST.body_s + MARGIN_S)
        assert watch.status(replied) == 200
        assert watch.status(timed_out) == 408
        assert watch.status(bad_token) == 401  # refused on its headers, its body unread, not counted
    finally:
        watch.close()
    assert until(lambda: gw.connections.open() == 0, MARGIN_S)
    assert gw.connections.open(token) == 0
    assert gw.connections.by_token == {}


def test_by_default_a_job_holds_at_most_32_connections(make_gateway):
    """The README's promise, with the gateway's defaults alone: the 33rd connection is refused
    as soon as its headers are read, and closing the others frees the count."""
    gw = make_gateway(HELLO)
    # the deadlines the README states; the tests above show each one at work, at shorter values
    assert (gw.deadlines.header_s, gw.deadlines.body_s, gw.deadlines.idle_s) == (10, 30, 15)
    hog = gw.issue_token()
    watch = Watch(gw)
    try:
        socks = [watch.open(head(hog, 1_000)) for _ in range(40)]
        watch.wait(10, enough=lambda: watch.statuses().count(429) == 8)
        assert sorted(watch.statuses()) == [429] * 8
        assert gw.connections.open(hog) == 32
        for sock in socks:
            if sock not in watch.closed:
                watch.selector.unregister(sock)
                sock.close()
        assert until(lambda: gw.connections.open(hog) == 0, MARGIN_S)
    finally:
        watch.close()
