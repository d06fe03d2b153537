"""A worker node's own gateway: an HTTP server on a Unix socket (what sandboxed agents on
that node connect to) that forwards every request, unchanged, to the driver's gateway,
which alone checks tokens, enforces budgets and meters calls, so accounting stays exact
however many nodes there are. The hop between the nodes is the executor's business (a
callable); the driver's end is `forward_to_socket`."""

from __future__ import annotations

import json
import logging
import os
import shutil
import socketserver
import tempfile
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import httpx2

log = logging.getLogger(__name__)
Headers = list[tuple[str, str]]
Reply = tuple[int, Headers, bytes]
Forward = Callable[[str, str, Headers, bytes], Reply]
# Per-hop headers: each side of the relay sets its own.
HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "content-length", "host", "proxy-connection"})


def forward_to_socket(socket_path: Path, request: tuple[str, str, Headers, bytes], timeout: float | None) -> Reply:
    """Send one HTTP request to the gateway on `socket_path`; the whole reply (a streamed
    one read to its end)."""
    method, path, headers, body = request
    transport = httpx2.HTTPTransport(uds=str(socket_path))
    with httpx2.Client(transport=transport, timeout=timeout, base_url="http://dgm-gateway") as conn:
        reply = conn.request(
            method, path, content=body or None, headers=[h for h in headers if h[0].lower() not in HOP]
        )
        return reply.status_code, [h for h in reply.headers.multi_items() if h[0].lower() not in HOP], reply.content


class Relay:
    """The node-side end: `with Relay(forward) as relay:` serves on `relay.socket_path`."""

    def __init__(self, forward: Forward):
        self.forward = forward
        self.directory = tempfile.mkdtemp(prefix="dgm-relay-")
        self.socket_path = Path(self.directory) / "fm.sock"
        self.server: socketserver.ThreadingUnixStreamServer | None = None

    def __enter__(self) -> Relay:
        handler = type("Handler", (_Handler,), {"relay": self})
        self.server = socketserver.ThreadingUnixStreamServer(str(self.socket_path), handler)
        self.server.daemon_threads = True
        os.chmod(self.directory, 0o755)
        os.chmod(self.socket_path, 0o666)  # sandbox uids connect; the job's token is the credential
        threading.Thread(target=self.server.serve_forever, name="dgm-relay", daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.server = None
        shutil.rmtree(self.directory, ignore_errors=True)


class _Handler(BaseHTTPRequestHandler):
    relay: Relay
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args) -> None:
        log.debug("relay: " + format, *args)

    def _relay(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        try:
            status, headers, data = self.relay.forward(self.command, self.path, list(self.headers.items()), body)
        except Exception as exc:  # noqa: BLE001 - whatever broke between the nodes, the agent gets a clear 502
            log.warning("relay to the driver's gateway failed: %s", exc)
            status, headers = 502, [("Content-Type", "application/json"), ("x-should-retry", "true")]
            message = f"the worker's gateway could not reach the driver's: {exc.__class__.__name__}: {exc}"
            data = json.dumps({"error": {"type": "relay_error", "message": message}}).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _relay
