"""Latency the gateway adds to one model call.

The same openai client, over a Unix socket, asks the SCRIPTED upstream (the test double)
two ways: through a bare HTTP server that only calls the upstream ("direct"), and through
the gateway with a token, budgets, retries and metering into an archive ("gateway").
Added latency = median(gateway) - median(direct).

    .venv/bin/python benchmarks/bench_gateway.py [--calls N]

The last line: direct_ms=X gateway_ms=Y added_ms=Z
"""

from __future__ import annotations

import argparse
import json
import socketserver
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from dgm.gateway import Gateway
from dgm.gateway.scripted import ScriptedUpstream

SCRIPT = {"rules": [{"when": {}, "reply": {"content": "def add(a, b):\n    return a + b\n"}}]}
MESSAGES = [{"role": "system", "content": "You are a coding agent."}, {"role": "user", "content": "Fix add()."}]


class DirectHandler(BaseHTTPRequestHandler):
    """Only what any server must do: parse the request, call the upstream, answer."""

    protocol_version = "HTTP/1.1"
    upstream = ScriptedUpstream(SCRIPT)

    def address_string(self) -> str:
        return "unix"

    def log_message(self, *args) -> None:
        pass

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        body = json.dumps(self.upstream.complete({**request, "model": "scripted"}, 60)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def client(socket_path: Path, token: str):
    import httpx2
    import openai

    transport = httpx2.HTTPTransport(uds=str(socket_path))
    return openai.OpenAI(
        api_key=token, base_url="http://x/v1", max_retries=0, http_client=httpx2.Client(transport=transport)
    )


def timings(c, calls: int) -> list[float]:
    out = []
    for _ in range(calls):
        t0 = time.perf_counter()
        c.chat.completions.create(model="default", messages=MESSAGES)
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=500, help="calls per side (default 500)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="dgm-bench-"))
    direct_sock = work / "direct.sock"
    server = socketserver.ThreadingUnixStreamServer(str(direct_sock), DirectHandler)
    server.daemon_threads = True  # keep-alive handler threads must not hold the process open
    threading.Thread(target=server.serve_forever, daemon=True).start()
    direct_client = client(direct_sock, "unused")
    with Gateway(ScriptedUpstream(SCRIPT), work / "archive.db") as gateway:
        gateway_client = client(gateway.socket_path, gateway.issue_token())
        timings(direct_client, 20)  # warm-up both paths
        timings(gateway_client, 20)
        direct, through = [], []
        for _ in range(5):  # interleave rounds so drift hits both sides alike
            direct += timings(direct_client, args.calls // 5)
            through += timings(gateway_client, args.calls // 5)
        rows = len(gateway.archive.fm_calls())
    server.shutdown()
    server.server_close()
    d, g = statistics.median(direct) * 1000, statistics.median(through) * 1000
    p95 = statistics.quantiles(through, n=20)[18] * 1000
    print(f"{args.calls} calls each; gateway p95 {p95:.2f} ms; {rows} fm_calls rows written", file=sys.stderr)
    print(f"direct_ms={d:.2f} gateway_ms={g:.2f} added_ms={g - d:.2f}")


if __name__ == "__main__":
    main()
