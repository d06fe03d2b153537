"""An OpenAI-compatible HTTP server that answers from the SCRIPTED upstream (the test
double) and injects faults on chosen requests: 429 with Retry-After, 500, connection
reset, a hang past the timeout, malformed JSON, a truncated body, an oversized reply."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from dgm.gateway.scripted import ScriptedUpstream

FAULTS = ("429", "500", "reset", "hang", "malformed", "truncated", "oversized")


class FaultServer:
    def __init__(self, script: dict, plan, hang_s: float = 5.0):
        """`plan(n)` gives the fault for the n-th chat request (from 0), or None."""
        self.upstream = ScriptedUpstream(script)
        self.plan = plan
        self.hang_s = hang_s
        self.count = 0
        self.injected: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _handler(self):
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _send(self, status: int, body: bytes, headers: dict | None = None, length: int | None = None):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(length if length is not None else len(body)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                self._send(
                    200,
                    json.dumps(
                        {"object": "list", "data": [{"id": "fault-model", "object": "model", "owned_by": "test"}]}
                    ).encode(),
                )

            def do_POST(self) -> None:
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with outer.lock:
                    fault = outer.plan(outer.count)
                    outer.count += 1
                    if fault:
                        outer.injected[fault] += 1
                if fault == "429":
                    self._send(429, b'{"error": {"message": "slow down"}}', {"Retry-After": "0.2"})
                elif fault == "500":
                    self._send(500, b'{"error": {"message": "boom"}}')
                elif fault == "reset":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    self.connection.close()
                elif fault == "hang":
                    time.sleep(outer.hang_s)
                    self.connection.close()
                elif fault == "malformed":
                    self._send(200, b'{"id": "x", "choices": [ this is not json')
                elif fault == "truncated":
                    body = json.dumps(outer.upstream.complete(request, 60)).encode()
                    self._send(200, body[: len(body) // 2], length=len(body))
                    self.connection.close()
                else:
                    reply = outer.upstream.complete(request, 60)
                    if fault == "oversized":
                        reply["choices"][0]["message"]["content"] = "x" * (6 * 2**20)
                    self._send(200, json.dumps(reply).encode())

        return Handler
