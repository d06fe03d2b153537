"""The HTTP side of the gateway: routes, the job token, the request body (its size checked
before it is read), JSON and server-sent-event answers. Each connection's reads and writes
run under deadlines, and each job may hold only so many connections (`connections.py`):
both are checked before a body is read."""

from __future__ import annotations

import io
import json
import logging
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any

from . import sse
from .connections import ANSWER, BODY, HEADERS, IDLE, Deadline, DeadlinePassed, DeadlineReader, DeadlineWriter
from .errors import GatewayError

if TYPE_CHECKING:
    from .server import Gateway, JobGrant

log = logging.getLogger(__name__)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    gateway: Gateway  # set on the subclass made per gateway

    # --- one connection --------------------------------------------------------------
    def setup(self) -> None:
        """The connection's reads and writes, under deadlines; the first request's headers
        are due `header_s` from now."""
        self.connection = self.request
        self.deadline = Deadline(HEADERS, self.gateway.deadlines.header_s)
        self.rfile = io.BufferedReader(DeadlineReader(self.connection, self.deadline))
        self.wfile = DeadlineWriter(self.connection, self.deadline)
        self.held: str | None = None  # the token this connection is counted for
        self.job: int | None = None  # and its job (for the log: a token is never logged)
        self.served = 0
        self.gateway.connections.opened()

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.gateway.connections.closed(self.held)

    def handle_one_request(self) -> None:
        deadlines = self.gateway.deadlines
        self.requestline, self.request_version, self.command = "", self.protocol_version, None
        try:
            if self.served:  # a kept-alive connection: idle until its next request begins
                self.deadline.start(IDLE, deadlines.idle_s)
                if not self.rfile.peek(1):
                    self.close_connection = True
                    return
                self.deadline.start(HEADERS, deadlines.header_s)
            self.served += 1
            super().handle_one_request()
        except DeadlinePassed as exc:
            self.close_connection = True
            self._timed_out(exc)
        except ConnectionError as exc:  # the client reset the connection
            self.close_connection = True
            log.debug("gateway: connection of job %s reset: %r", self.job, exc)

    def _timed_out(self, exc: DeadlinePassed) -> None:
        """Close a connection past its deadline, answering 408 to a request not yet read."""
        if exc.phase == IDLE:  # an idle kept-alive connection closes without a word
            log.debug("gateway: closed an idle connection of job %s", self.job)
            return
        self.gateway.connections.dropped(exc.phase, "gateway: dropped a connection of job %s: %s", self.job, exc)
        if exc.phase == ANSWER:
            return
        try:
            self._error(GatewayError(408, "request_timeout", f"dgm gateway: {exc}"))
        except (DeadlinePassed, OSError) as err:
            log.debug("gateway: could not answer 408: %r", err)

    def send_response(self, code: int, message: str | None = None) -> None:
        self.deadline.start(ANSWER, self.gateway.deadlines.answer_s)
        super().send_response(code, message)

    def _grant(self) -> JobGrant:
        """The request's grant, its connection counted for its token; over the job's cap,
        429 and the connection is closed (called before any body is read)."""
        token = self._token()
        grant = self.gateway.grant(token)
        connections = self.gateway.connections
        if token != self.held:
            if self.held is not None:
                connections.release(self.held)
                self.held = None
            if not connections.hold(token or ""):
                self.close_connection = True
                connections.dropped(
                    ("cap", grant.job_id), "gateway: refused a connection of job %s: over its cap", grant.job_id
                )
                raise GatewayError(
                    429,
                    "too_many_connections",
                    f"dgm gateway: this job already has {connections.cap} connections open to the gateway, "
                    "the most it may have; close one before opening another",
                )
            self.held, self.job = token, grant.job_id
        return grant

    # --- requests --------------------------------------------------------------------
    def address_string(self) -> str:  # Unix sockets have no peer address
        return "unix"

    def log_message(self, fmt: str, *args: Any) -> None:
        log.debug("gateway: " + fmt, *args)

    def _send_json(self, status: int, body: dict[str, Any], extra: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the agent went away (its sandbox was closed)
            log.info("gateway: the client left before its %s answer", status)
            self.close_connection = True

    def _error(self, exc: GatewayError) -> None:
        # x-should-retry: false stops the openai client's own retries: the gateway already retried.
        headers = {"x-should-retry": "false", **({"Connection": "close"} if self.close_connection else {})}
        self._send_json(exc.status, {"error": {"message": str(exc), "type": exc.kind, "code": exc.kind}}, headers)

    def _token(self) -> str | None:
        auth = self.headers.get("Authorization", "")
        return auth[7:] if auth.startswith("Bearer ") else None

    def do_GET(self) -> None:
        try:
            self._grant()
            if self.path.rstrip("/") != "/v1/models":
                raise GatewayError(404, "not_found", f"no route {self.path}")
            self._send_json(200, self.gateway.models())
        except GatewayError as exc:
            self._error(exc)

    def _body(self) -> bytes:
        """The request body, read only when its declared length is within the cap, and
        within `body_s` of the end of the headers."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower() or self.headers.get("Content-Length") is None:
            raise GatewayError(411, "invalid_request_error", "dgm gateway: a request body needs a Content-Length")
        try:
            length = int(self.headers["Content-Length"])
        except ValueError:
            length = -1
        if length < 0:
            raise GatewayError(400, "invalid_request_error", "dgm gateway: Content-Length is not a whole number")
        cap = self.gateway.limits.max_request_bytes
        if length > cap:
            raise GatewayError(
                413, "request_too_large", f"dgm gateway: a request body of {length} bytes is over the {cap}-byte limit"
            )
        self.deadline.start(BODY, self.gateway.deadlines.body_s)
        body = self.rfile.read(length)
        if len(body) < length:  # the client left mid-body
            raise GatewayError(400, "invalid_request_error", "dgm gateway: the request body ended before its length")
        return body

    def do_POST(self) -> None:
        body = None
        try:
            grant = self._grant()
            if self.path.rstrip("/") != "/v1/chat/completions":
                raise GatewayError(404, "not_found", f"no route {self.path}")
            body = self._body()
            try:
                request = json.loads(body)
            except ValueError:
                request = None
            if not isinstance(request, dict) or not isinstance(request.get("messages"), list):
                raise GatewayError(400, "invalid_request_error", "body must be a JSON chat-completions request")
            reply = self.gateway.complete(grant, request)
        except GatewayError as exc:
            if body is None:  # the unread body must not be taken for the next request
                self.close_connection = True
            self._error(exc)
            return
        if not request.get("stream"):
            self._send_json(200, reply)
            return
        include_usage = bool((request.get("stream_options") or {}).get("include_usage"))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for event in sse.events(reply, include_usage):
            self.wfile.write(event)
        self.close_connection = True
