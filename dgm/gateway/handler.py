"""The HTTP side of the gateway: routes, the job token, the request body (its size checked
before it is read), JSON and server-sent-event answers."""

from __future__ import annotations

import json
import logging
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any

from . import sse
from .errors import GatewayError

if TYPE_CHECKING:
    from .server import Gateway

log = logging.getLogger(__name__)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    gateway: Gateway  # set on the subclass made per gateway

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

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        try:
            self.gateway.grant(self._token())
            if self.path.rstrip("/") != "/v1/models":
                raise GatewayError(404, "not_found", f"no route {self.path}")
            self._send_json(200, self.gateway.models())
        except GatewayError as exc:
            self._error(exc)

    def _body(self) -> bytes:
        """The request body, read only when its declared length is within the cap."""
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
        return self.rfile.read(length)

    def do_POST(self) -> None:  # noqa: N802
        body = None
        try:
            grant = self.gateway.grant(self._token())
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
