"""The gateway: an OpenAI-compatible HTTP server on a Unix socket, between sandboxed agents
and the configured upstream. It authenticates each job by its own token, pins the model,
holds each call's cost against the job's and the run's budgets before sending it (see
`admission.py`, `ledger.py`), retries the upstream, meters every call into the archive,
and answers streaming requests as server-sent events (the HTTP side is `handler.py`)."""

from __future__ import annotations

import concurrent.futures
import functools
import json
import logging
import os
import random
import secrets
import socketserver
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from archive import Archive

from .. import tempdirs
from . import admission, tokens
from .connections import DEFAULT_DEADLINES, Connections, Deadlines
from .daemon_pool import DaemonPool
from .errors import BudgetRefused, GatewayError
from .handler import Handler
from .ledger import Ledger, Usage, charge
from .live import RunLive, read_live
from .policy import Budget, RetryPolicy
from .pricing import Price, Prices
from .upstream import Upstream, UpstreamError, request_hash

log = logging.getLogger(__name__)
MAX_REPLY_BYTES = 4 * 2**20  # a reply larger than this is refused, not passed to an agent
UNPRICED = Price(0.0, 0.0, "unknown")
# The run's budget is spent for good when this many different jobs in a row (no call admitted
# in between) were refused by it: what is left pays for nothing the agents ask. One job alone,
# however large its prompts, cannot end the run.
REFUSED_JOBS_TO_STOP = 3
CLOSE_GRACE_S = 10.0  # how long closing waits for calls still in flight, so that their usage is recorded


class _Server(socketserver.ThreadingUnixStreamServer):
    request_queue_size = 128  # many agents connect at once; the default 5 refuses them (EAGAIN)


@dataclass(frozen=True)
class JobGrant:
    """What a token stands for. `model`: the model its calls go to (None: the gateway's);
    `role`: what the job is (solve, improve), recorded with each call; `roles`: other roles
    the job may ask for by name as its request's model, and their models (None: the
    gateway's), e.g. an improve job's {"diagnose": "a-stronger-model"}. `ended` is set when
    the token is revoked (its job is over): calls still decoding for it stop."""

    job_id: int | None
    node_id: int | None
    budget: Budget
    model: str | None = None
    role: str | None = None
    roles: Mapping[str, str | None] = field(default_factory=dict)
    ended: threading.Event = field(default_factory=threading.Event, compare=False, repr=False)


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
        limits: admission.Limits = admission.Limits(),
        on_run_budget_spent: Callable[[str], None] | None = None,
        archive_lock: threading.Lock | None = None,
        deadlines: Deadlines = DEFAULT_DEADLINES,
    ):
        """`model`: the model every call is pinned to ("default" means it, other names are
        refused); None takes the upstream's first model. `on_run_budget_spent(reason)` is
        called (from a request thread) when the run's budget can pay for no more calls.
        `archive_lock`: the lock this process's writers to the archive file take around every
        use of their connection (the gateway's request threads write fm_calls and events);
        the run that owns the archive passes its own, so its writes and the gateway's never
        interleave. Without one the gateway makes its own. `deadlines`: how long a
        connection may take over a request's headers, its body, the wait for its next
        request and an answer; `limits.connection_cap()` bounds each job's open connections
        (`connections.py`)."""
        self.upstream = upstream
        self.model = model
        self.archive = Archive(archive_path, shared_between_threads=True) if archive_path else None
        self.run_budget, self.prices, self.retry, self.limits = run_budget, prices, retry, limits
        self.on_run_budget_spent = on_run_budget_spent
        self.rng = random.Random(seed)
        self.archive_lock = archive_lock or threading.Lock()  # guards self.archive (see above)
        self.lock = threading.Lock()  # guards the grants and the refusal bookkeeping
        self.grants: dict[str, JobGrant] = {}
        self.deadlines = deadlines
        self.connections = Connections(limits.connection_cap())
        self.ledger = Ledger(run_budget, self.archive.fm_usage() if self.archive else (0, 0.0), limits.job_concurrency)
        self.reported: set[tuple[str, int | None]] = set()
        self.run_refused: set[int | None] = set()  # jobs the run's budget refused since the last admitted call
        self.pool = DaemonPool(max_workers=32, name="dgm-upstream")  # exit never waits for a call
        if socket_path is None:  # its own folder, named for this process; those of dead ones go first
            tempdirs.sweep()
        self._dir = None if socket_path else str(tempdirs.make(tempdirs.GATEWAY))
        self.socket_path = Path(socket_path) if socket_path else Path(self._dir) / "fm.sock"
        self.server: _Server | None = None
        self.closed = False
        self.in_flight = 0  # completions under way, guarded by self.idle
        self.idle = threading.Condition()
        self.thread: threading.Thread | None = None

    # --- lifetime --------------------------------------------------------------------
    def start(self) -> Gateway:
        """Serve on the socket. If it cannot start (a config error), what the gateway holds
        (its socket folder, its archive connection) is released before the error goes on."""
        try:
            return self._start()
        except BaseException:
            self.close()
            raise

    def _start(self) -> Gateway:
        if len(str(self.socket_path)) > 100:
            raise GatewayError(500, "config", f"socket path too long for a Unix socket: {self.socket_path}")
        model = self.pinned_model()
        if self.run_budget.usd is not None and self.price(model) is UNPRICED:
            raise GatewayError(
                500,
                "config",
                f"a dollar budget needs the price of model {model!r}, and the price table does not know it: "
                f"set it with --price {model}=IN,OUT (dollars per million prompt and completion tokens) "
                "or a [prices] table in dgm.toml",
            )
        self.socket_path.unlink(missing_ok=True)
        handler = type("Handler", (Handler,), {"gateway": self})
        self.server = _Server(str(self.socket_path), handler)
        self.server.daemon_threads = True
        os.chmod(self.socket_path, 0o666)  # sandbox uids connect; the token is the credential
        if self._dir:
            os.chmod(self._dir, 0o755)
        self.thread = threading.Thread(target=self.server.serve_forever, name="dgm-gateway", daemon=True)
        self.thread.start()
        log.info("gateway on %s -> %s upstream", self.socket_path, self.upstream.name)
        return self

    def close(self) -> None:
        """Stop serving; wait up to CLOSE_GRACE_S for calls still in flight (a job that ended
        while its model call went on), so that what they cost is recorded; then close the
        archive. A call that ends later is logged, not recorded. Then the upstream is closed, if
        it has a `close(wait_s)` (the embedded model: within what is left of the grace, its
        calls end and its decoding threads with them, before the process exits). Every job
        counts as ended from here: an upstream that can stop a call midway stops them all."""
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.server = None
        with self.lock:
            for grant in self.grants.values():
                grant.ended.set()
        deadline = time.monotonic() + CLOSE_GRACE_S
        with self.idle:
            if not self.idle.wait_for(lambda: self.in_flight == 0, timeout=CLOSE_GRACE_S):
                log.warning("gateway closing with %d model call(s) still in flight", self.in_flight)
        self.pool.shutdown(cancel_futures=True)
        close_upstream = getattr(self.upstream, "close", None)
        if close_upstream is not None:
            close_upstream(max(0.0, deadline - time.monotonic()))
        self.socket_path.unlink(missing_ok=True)
        if self._dir:
            os.rmdir(self._dir)
            self._dir = None
        with self.archive_lock:
            archive, self.archive = self.archive, None
            self.closed = True
            if archive:
                archive.close()

    def __enter__(self) -> Gateway:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- tokens ----------------------------------------------------------------------
    def issue_token(
        self,
        job_id: int | None = None,
        node_id: int | None = None,
        budget: Budget = Budget(),
        model: str | None = None,
        role: str | None = None,
        roles: Mapping[str, str | None] | None = None,
    ) -> str:
        """A fresh credential for one sandboxed job (its OPENAI_API_KEY inside); `model`
        pins this job to another model than the gateway's (its role's model); `roles`: the
        other roles it may ask for by name (see JobGrant)."""
        for name in [model, *(roles or {}).values()]:
            if name and self.run_budget.usd is not None and self.price(name) is UNPRICED:
                raise GatewayError(
                    500, "config", f"a dollar budget needs the price of model {name!r}: --price {name}=IN,OUT"
                )
        token = "dgm-job-" + secrets.token_urlsafe(24)
        with self.lock:
            self.grants[token] = JobGrant(job_id, node_id, budget, model, role, dict(roles or {}))
        with self.archive_lock:
            spent = self.archive.fm_usage(job_id) if self.archive and job_id else (0, 0.0)
            calls = self.archive.fm_call_count(job_id) if self.archive and job_id else 0
        self.ledger.add_job(job_id, spent, calls)
        return token

    def revoke_token(self, token: str) -> None:
        with self.lock:
            grant = self.grants.pop(token, None)
        if grant is not None:
            grant.ended.set()

    # --- pins and prices -------------------------------------------------------------
    @property
    def run_usage(self) -> Usage:
        """The tokens and dollars the run has been charged, calls of earlier sessions included."""
        return self.ledger.spent()

    def live(self, job_ids: Iterable[int | None] = ()) -> RunLive:
        """What the run and the jobs `job_ids` have used so far, calls still in flight
        included (their age and counted prompt; see `live.py`): read-only, cheap, any thread."""
        return read_live(self.ledger, self.upstream, job_ids)

    def pinned_model(self) -> str:
        """The model calls go to: the configured one, else the upstream's first (asked once)."""
        if self.model is None:
            self.model = self.upstream.models()[0]
        return self.model

    def price(self, model: str) -> Price:
        return self.prices.price(model, free=getattr(self.upstream, "free", False)) or UNPRICED

    # --- serving ---------------------------------------------------------------------
    def models(self) -> dict[str, Any]:
        names = [self.pinned_model()]
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

    def _refused(self, grant: JobGrant, exc: BudgetRefused) -> None:
        """Log a budget refusal once per scope (and job); report a used-up run budget."""
        with self.lock:
            first = (exc.scope, grant.job_id) not in self.reported
            self.reported.add((exc.scope, grant.job_id))
            used = self.ledger.spent(grant.job_id, run=exc.scope == "run")
            if exc.scope == "run":
                self.run_refused.add(grant.job_id)
            final = exc.final or len(self.run_refused) >= REFUSED_JOBS_TO_STOP
        with self.archive_lock:
            if self.archive and first:
                self.archive.log_event(
                    "budget_exhausted",
                    node_id=grant.node_id,
                    job_id=grant.job_id,
                    data={"scope": exc.scope, "limit": exc.limit, "tokens": used.tokens, "usd": used.usd},
                )
        if exc.scope == "run" and final and self.on_run_budget_spent:
            self.on_run_budget_spent(
                f"{used.tokens} tokens, ${used.usd:.6f} charged, and what is left cannot pay for the calls "
                "the agents make"
            )

    def complete(self, grant: JobGrant, request: dict[str, Any]) -> dict[str, Any]:
        """One metered, budgeted, retried completion (the whole reply, never a stream)."""
        with self.idle:
            self.in_flight += 1
        try:
            return self._complete(grant, request)
        finally:
            with self.idle:
                self.in_flight -= 1
                self.idle.notify_all()

    def _complete(self, grant: JobGrant, request: dict[str, Any]) -> dict[str, Any]:
        wanted_model = request.get("model")
        if isinstance(wanted_model, str) and wanted_model in grant.roles:  # a role this job may ask for by name
            role, model = wanted_model, grant.roles[wanted_model] or self.pinned_model()
            request = {**request, "model": model}
        else:
            role, model = grant.role, grant.model or self.pinned_model()
            request = admission.pin(request, model, sorted(grant.roles))
        wanted = admission.check(request)
        price = self.price(model)
        prompt = tokens.prompt_tokens(model, request)
        try:
            cap = min(wanted or self.limits.max_call_tokens, self.limits.max_call_tokens)
            hold = self.ledger.admit(grant.job_id, grant.budget, prompt, cap, price, self.retry.timeout_s)
        except BudgetRefused as exc:
            self._refused(grant, exc)
            raise
        with self.lock:
            self.run_refused.clear()
        request = admission.with_completion_cap(request, hold.completion)
        reply, error, attempts, start = None, None, 0, time.monotonic()
        try:
            reply, error, attempts = self._call(request, grant.ended)
        finally:
            usage = (reply or {}).get("usage") or {}
            pt, ct = charge(usage if isinstance(usage, dict) else {}, hold, tokens.exact(model)) if reply else (0, 0)
            cost = price.cost(pt, ct)
            self.ledger.settle(hold, pt + ct, cost)
        return self._record(grant, role, request, reply, error, attempts, time.monotonic() - start, (pt, ct, cost))

    def _call(
        self, request: dict[str, Any], job_ended: threading.Event
    ) -> tuple[dict[str, Any] | None, UpstreamError | None, int]:
        """The upstream's reply (or the last error) after up to `retry.attempts` tries. An
        upstream that can stop a call midway (`cancellable`) stops it once the job ended or
        this gives up on it, so that no slot decodes for no one."""
        given_up = threading.Event()
        try:
            return self._tries(request, lambda: job_ended.is_set() or given_up.is_set())
        finally:
            given_up.set()

    def _tries(
        self, request: dict[str, Any], abandoned: Callable[[], bool]
    ) -> tuple[dict[str, Any] | None, UpstreamError | None, int]:
        call = self.upstream.complete
        if getattr(self.upstream, "cancellable", False):
            call = functools.partial(call, abandoned=abandoned)
        reply, error, attempt, future = None, None, 0, None
        while True:
            attempt += 1
            if future is None:  # else: the call on this machine that timed out, waited on again
                future = self.pool.submit(call, request, self.retry.timeout_s)
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
                # An upstream on this machine is still decoding the call that timed out, and its
                # reply is bounded by the completion cap: asking again would only queue the same
                # work behind it, so the next try waits for this one (a long prompt and reply
                # under load outlast one timeout, and the agent lost its task to it).
                if getattr(self.upstream, "computes_here", False):
                    load = getattr(self.upstream, "load", None)  # why: e.g. calls queued for a decoding slot
                    waited = f"no answer within {self.retry.timeout_s * attempt:g}s"
                    error = UpstreamError(f"{waited} ({load()})" if load else waited, retryable=False)
                    if attempt >= self.retry.attempts:
                        break
                    continue
                error, future = UpstreamError(f"no answer within {self.retry.timeout_s:g}s"), None
            except UpstreamError as exc:
                error, future = exc, None
            except Exception as exc:
                log.exception("upstream %s crashed", self.upstream.name)
                error = UpstreamError(f"upstream {self.upstream.name} crashed: {exc!r}", retryable=False)
            if not error.retryable or attempt >= self.retry.attempts:
                break
            time.sleep(self.retry.wait(attempt, error.retry_after, self.rng))
        return reply, error, attempt

    def _record(
        self,
        grant: JobGrant,
        role: str | None,
        request: dict[str, Any],
        reply: dict[str, Any] | None,
        error: UpstreamError | None,
        attempts: int,
        latency: float,
        charged: tuple[int, int, float],
    ) -> dict[str, Any]:
        pt, ct, cost = charged
        with self.archive_lock:
            if self.closed:
                log.warning(
                    "a model call of job %s ended after the gateway closed; not recorded: %d prompt + %d "
                    "completion tokens, $%.6f",
                    grant.job_id,
                    pt,
                    ct,
                    cost,
                )
            elif self.archive:
                self.archive.add_fm_call(
                    response=json.dumps(reply, sort_keys=True).encode() if reply else None,
                    job_id=grant.job_id,
                    node_id=grant.node_id,
                    model=request["model"],
                    prompt_tokens=pt,
                    completion_tokens=ct,
                    cost_usd=cost,
                    latency_s=latency,
                    request_hash=request_hash(request),
                    status="ok" if reply else "error",
                    error=None if reply else str(error),
                    attempts=attempts,
                    role=role,
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
