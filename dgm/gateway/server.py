"""The gateway: an OpenAI-compatible HTTP server on a Unix socket, between sandboxed agents
and the configured upstream. It authenticates each job by its own token, enforces job and
run budgets, retries the upstream, meters every call into the archive, and answers
streaming requests as server-sent events."""

from __future__ import annotations

import concurrent.futures
import json
import logging
import os
import random
import secrets
import socketserver
import tempfile
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from archive import Archive

from . import sse
from .policy import Budget, Prices, RetryPolicy
from .upstream import Upstream, UpstreamError, request_hash

log = logging.getLogger(__name__)
MAX_REPLY_BYTES = 4 * 2**20  # a reply larger than this is refused, not passed to an agent


@dataclass(frozen=True)
class JobGrant:
    """What a token stands for."""

    job_id: int | None
    node_id: int | None
    budget: Budget


class GatewayError(Exception):
    """An error answered to the agent: HTTP status, OpenAI-style error type, message."""

    def __init__(self, status: int, kind: str, message: str):
        super().__init__(message)
        self.status, self.kind = status, kind


class Gateway:
    def __init__(
        self,
        upstream: Upstream,
        archive_path: str | Path | None = None,
        *,
        run_budget: Budget = Budget(),
        prices: Prices = Prices(),
        retry: RetryPolicy = RetryPolicy(),
        seed: int = 0,
        socket_path: str | Path | None = None,
        model: str | None = None,
    ):
        """`model`: what "default" (and any name the upstream does not list) means; None
        takes the upstream's first model."""
        self.upstream = upstream
        self.model = model
        self.archive = Archive(archive_path, shared_between_threads=True) if archive_path else None
        self.run_budget, self.prices, self.retry = run_budget, prices, retry
        self.rng = random.Random(seed)
        self.lock = threading.Lock()  # guards the archive, the grants and the counters
        self.grants: dict[str, JobGrant] = {}
        self.job_usage: dict[int | None, list[float]] = {}
        self.run_usage = list(self.archive.fm_usage()) if self.archive else [0, 0.0]
        self.reported: set[tuple[str, int | None]] = set()
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=32, thread_name_prefix="dgm-upstream")
        self._dir = None if socket_path else tempfile.mkdtemp(prefix="dgm-gw-")
        self.socket_path = Path(socket_path) if socket_path else Path(self._dir) / "fm.sock"
        self.server: socketserver.ThreadingUnixStreamServer | None = None
        self.thread: threading.Thread | None = None

    # --- lifetime --------------------------------------------------------------------
    def start(self) -> Gateway:
        if len(str(self.socket_path)) > 100:
            raise GatewayError(500, "config", f"socket path too long for a Unix socket: {self.socket_path}")
        self.socket_path.unlink(missing_ok=True)
        handler = type("Handler", (_Handler,), {"gateway": self})
        self.server = socketserver.ThreadingUnixStreamServer(str(self.socket_path), handler)
        self.server.daemon_threads = True
        os.chmod(self.socket_path, 0o666)  # sandbox uids connect; the token is the credential
        if self._dir:
            os.chmod(self._dir, 0o755)
        self.thread = threading.Thread(target=self.server.serve_forever, name="dgm-gateway", daemon=True)
        self.thread.start()
        log.info("gateway on %s -> %s upstream", self.socket_path, self.upstream.name)
        return self

    def close(self) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.server = None
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.socket_path.unlink(missing_ok=True)
        if self._dir:
            os.rmdir(self._dir)
            self._dir = None
        if self.archive:
            with self.lock:
                self.archive.close()

    def __enter__(self) -> Gateway:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- tokens ----------------------------------------------------------------------
    def issue_token(self, job_id: int | None = None, node_id: int | None = None, budget: Budget = Budget()) -> str:
        """A fresh credential for one sandboxed job (its OPENAI_API_KEY inside)."""
        token = "dgm-job-" + secrets.token_urlsafe(24)
        with self.lock:
            self.grants[token] = JobGrant(job_id, node_id, budget)
            if job_id not in self.job_usage:
                self.job_usage[job_id] = list(self.archive.fm_usage(job_id)) if self.archive and job_id else [0, 0.0]
        return token

    def revoke_token(self, token: str) -> None:
        with self.lock:
            self.grants.pop(token, None)

    # --- serving ---------------------------------------------------------------------
    def models(self) -> dict[str, Any]:
        names = [self.model] if self.model else self.upstream.models()
        return {
            "object": "list",
            "data": [
                {
                    "id": m,
                    "object": "model",
                    "owned_by": "dgm",
                    "dgm": {
                        "upstream": self.upstream.name,
                        "tool_calling": self.upstream.tool_calling,
                        "note": self.upstream.note,
                    },
                }
                for m in names
            ],
        }

    def grant(self, token: str | None) -> JobGrant:
        with self.lock:
            grant = self.grants.get(token or "")
        if grant is None:
            raise GatewayError(401, "invalid_api_key", "dgm gateway: unknown or revoked job token")
        return grant

    def _check_budgets(self, grant: JobGrant) -> None:
        with self.lock:
            job_used = self.job_usage.get(grant.job_id, [0, 0.0])
            for scope, budget, used in (("job", grant.budget, job_used), ("run", self.run_budget, self.run_usage)):
                limit = budget.exceeded(int(used[0]), used[1])
                if limit is None:
                    continue
                if self.archive and (scope, grant.job_id) not in self.reported:
                    self.reported.add((scope, grant.job_id))
                    self.archive.log_event(
                        "budget_exhausted",
                        node_id=grant.node_id,
                        job_id=grant.job_id,
                        data={"scope": scope, "limit": limit, "tokens": used[0], "usd": used[1]},
                    )
                raise GatewayError(
                    429,
                    "budget_exhausted",
                    f"dgm gateway: the {scope}'s budget of {limit} is spent "
                    f"({int(used[0])} tokens, ${used[1]:.4f} used); no more model calls",
                )

    def complete(self, grant: JobGrant, request: dict[str, Any]) -> dict[str, Any]:
        """One metered, budgeted, retried completion (the whole reply, never a stream)."""
        self._check_budgets(grant)
        models = self.upstream.models()
        wanted = request.get("model")
        if wanted in (None, "", "default") or (wanted not in models and self.model):
            request = {**request, "model": self.model or models[0]}
        key = request_hash(request)
        start = time.monotonic()
        reply, error, attempt = None, None, 0
        while True:
            attempt += 1
            future = self.pool.submit(self.upstream.complete, request, self.retry.timeout_s)
            try:
                reply, error = future.result(timeout=self.retry.timeout_s), None
                size = len(json.dumps(reply))
                if size > MAX_REPLY_BYTES:
                    reply, error = (
                        None,
                        UpstreamError(
                            f"upstream reply of {size} bytes is over the gateway's {MAX_REPLY_BYTES}-byte limit",
                            retryable=False,
                        ),
                    )
                break
            except concurrent.futures.TimeoutError:
                error = UpstreamError(f"no answer within {self.retry.timeout_s:g}s")
            except UpstreamError as exc:
                error = exc
            except Exception as exc:  # noqa: BLE001 - a broken upstream is one clear error, not a dead server
                log.exception("upstream %s crashed", self.upstream.name)
                error = UpstreamError(f"upstream {self.upstream.name} crashed: {exc!r}", retryable=False)
            if not error.retryable or attempt >= self.retry.attempts:
                break
            time.sleep(self.retry.wait(attempt, error.retry_after, self.rng))
        return self._record(grant, request, key, reply, error, attempt, time.monotonic() - start)

    def _record(
        self,
        grant: JobGrant,
        request: dict[str, Any],
        key: str,
        reply: dict[str, Any] | None,
        error: UpstreamError | None,
        attempts: int,
        latency: float,
    ) -> dict[str, Any]:
        usage = (reply or {}).get("usage") or {}
        pt, ct = int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))
        cost = self.prices.cost(request["model"], pt, ct)
        with self.lock:
            for used in (self.run_usage, self.job_usage.setdefault(grant.job_id, [0, 0.0])):
                used[0] += pt + ct
                used[1] += cost
            if self.archive:
                self.archive.add_fm_call(
                    response=json.dumps(reply, sort_keys=True).encode() if reply else None,
                    job_id=grant.job_id,
                    node_id=grant.node_id,
                    model=request["model"],
                    prompt_tokens=pt,
                    completion_tokens=ct,
                    cost_usd=cost,
                    latency_s=latency,
                    request_hash=key,
                    status="ok" if reply else "error",
                    error=None if reply else str(error),
                    attempts=attempts,
                )
                if not reply:
                    self.archive.log_event(
                        "fm_error",
                        node_id=grant.node_id,
                        job_id=grant.job_id,
                        data={"error": str(error), "attempts": attempts},
                    )
        if reply is None:
            # A refusal (4xx, not retried) keeps its status; anything else is a bad gateway.
            status = error.status if not error.retryable and error.status and 400 <= error.status < 500 else 502
            raise GatewayError(
                status, "upstream_error", f"dgm gateway: the model call failed after {attempts} attempt(s): {error}"
            )
        return reply


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    gateway: Gateway  # set on the subclass made per gateway

    def address_string(self) -> str:  # Unix sockets have no peer address
        return "unix"

    def log_message(self, fmt: str, *args: Any) -> None:
        log.debug("gateway: " + fmt, *args)

    def _send_json(self, status: int, body: dict[str, Any], extra: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _error(self, exc: GatewayError) -> None:
        # x-should-retry: false stops the openai client's own retries: the gateway already retried.
        self._send_json(
            exc.status,
            {"error": {"message": str(exc), "type": exc.kind, "code": exc.kind}},
            {"x-should-retry": "false"},
        )

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

    def do_POST(self) -> None:  # noqa: N802
        try:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            grant = self.gateway.grant(self._token())
            if self.path.rstrip("/") != "/v1/chat/completions":
                raise GatewayError(404, "not_found", f"no route {self.path}")
            try:
                request = json.loads(body)
            except ValueError:
                request = None
            if not isinstance(request, dict) or not isinstance(request.get("messages"), list):
                raise GatewayError(400, "invalid_request_error", "body must be a JSON chat-completions request")
            reply = self.gateway.complete(grant, request)
        except GatewayError as exc:
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
