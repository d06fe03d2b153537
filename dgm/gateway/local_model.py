"""The embedded upstream: a small GGUF model served in process by llama.cpp's own server
(the `xllamacpp` wheel: prebuilt, nothing to compile), with one slot per worker so that
concurrent jobs decode together (continuous batching).

Offline and weak: it needs no network and no key, so a new user sees a whole run on a
bare machine, but it cannot drive tool calls, so agents get the text protocol. Real runs
use a real endpoint (`--fm openai`). Threads are the cores this process gets (`cores.py`:
every core while nothing else is busy, else as many as a probe gets; measured at start,
re-chosen while the run goes on), since one decoding thread whose core is taken stalls
all; llama.cpp's threads sleep rather than spin between steps (POLL = 0: as fast,
measured, and it leaves idle cores to the sandboxes). Context is 8192 tokens per slot. DGM_LOCAL_THREADS (a fixed
count) and DGM_LOCAL_CTX override them; `settings()` is what a run records. A reply stops
at 4096 tokens (MAX_REPLY). Calls go to the server in process; the HTTP listener llama.cpp's
server always opens is a Unix socket in a private folder, behind a random API key, so
nothing else on the machine can use it."""

from __future__ import annotations

import http.client
import json
import logging
import os
import secrets
import socket
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from .. import tempdirs
from . import cores, streamed
from .in_flight import Calls
from .upstream import UpstreamError

N_CTX = 8192  # per slot
POLL = 0  # llama.cpp's polling level between steps (its default, 50, spins): see BENCHMARKS.md
PASSED_ON = ("messages", "temperature", "top_p", "max_tokens", "stop", "seed")
# The longest reply the embedded model gives, whatever the gateway's cap (16,384 by default):
# a 1.5B model past a few thousand tokens is repeating itself, and at a few tokens a second
# such a reply holds a decoding slot for most of an hour, after its job is long gone.
MAX_REPLY = 4096
DEFAULT_REPLY = 1024  # a request that names no cap
CLOSE_WAIT_S = 10.0  # how long close() waits for calls in flight
log = logging.getLogger(__name__)


def request_body(request: dict[str, Any]) -> dict[str, Any]:
    """What llama.cpp's server is sent for `request`: the fields it reads, the reply capped."""
    body = {k: request[k] for k in PASSED_ON if k in request}
    body["max_tokens"] = min(body.get("max_tokens") or DEFAULT_REPLY, MAX_REPLY)
    return body


def fixed_threads() -> int | None:
    """DGM_LOCAL_THREADS, when set: a count that does not follow the machine's load."""
    value = os.environ.get("DGM_LOCAL_THREADS")
    return int(value) if value else None


class LocalUpstream:
    name: ClassVar[str] = "embedded"
    usage: ClassVar[str] = "embedded[:GGUF_PATH]"
    summary: ClassVar[str] = "the embedded model: offline and weak"
    free: ClassVar[bool] = True  # the embedded model runs here
    sized_by_workers: ClassVar[bool] = True  # make_upstream gives it one slot per worker
    computes_here: ClassVar[bool] = True  # a call that timed out is still decoding: the gateway does not retry it
    cancellable: ClassVar[bool] = True  # complete(..., abandoned=): decoding stops once its caller is gone

    def __init__(self, model_path: str | Path | None = None, threads: int | None = None, slots: int = 1):
        from dgm import model as local_model

        self.path = Path(model_path) if model_path else local_model.model_path()
        if not self.path.exists():
            raise UpstreamError(
                f"no local model at {self.path}: run `dgm model install` (or `make local-model`)", retryable=False
            )
        try:
            import xllamacpp
        except ImportError as exc:
            raise UpstreamError(
                "the embedded model's runtime (xllamacpp) is not installed: run `dgm model install`", retryable=False
            ) from exc
        self.slots = max(1, slots)
        self.context = int(os.environ.get("DGM_LOCAL_CTX") or N_CTX)
        fixed = threads or fixed_threads()
        self.chosen = None if fixed else cores.measure_threads()
        self.threads, self.fixed = fixed or self.chosen.threads, fixed is not None
        self.private = tempfile.TemporaryDirectory(prefix=tempdirs.owned_prefix(tempdirs.EMBEDDED))  # mode 0700
        start = time.monotonic()
        self.server = self._server(xllamacpp, self.threads)
        self.load_seconds = time.monotonic() - start
        self.governor = cores.ThreadGovernor(self.threads, self._rebuild) if not self.fixed else None
        self.calls = Calls(on_idle=self.governor.check if self.governor else None)  # in flight, for close()
        self.last_timings: dict[str, Any] = {}
        self.model = local_model.MODEL_NAME
        self.tool_calling = False
        self.note = (
            "LOCAL embedded model: offline and weak (Qwen2.5-Coder-1.5B Q4_K_M); use a real endpoint for real runs"
        )

    def _server(self, xllamacpp, threads: int):
        params = xllamacpp.CommonParams()
        params.model.path = str(self.path)
        params.n_parallel = self.slots
        params.n_ctx = self.context * self.slots  # the server splits it between its slots
        for cpu in (params.cpuparams, params.cpuparams_batch):  # decoding, and the prompt
            cpu.n_threads, cpu.poll = threads, POLL
        params.warmup = False
        params.verbosity = 0  # errors only
        self._socket = str(Path(self.private.name) / f"server-{threads}-{secrets.token_hex(4)}.sock")
        self._key = secrets.token_hex(16)
        params.hostnames, params.api_keys = [self._socket], [self._key]
        return xllamacpp.Server(params)

    def _rebuild(self, threads: int) -> None:
        """A new server with `threads` (the governor calls it with no call in flight)."""
        import xllamacpp

        self.server = None  # the old one's threads and memory go first
        self.server = self._server(xllamacpp, threads)
        self.threads = threads

    def settings(self) -> dict[str, Any]:
        """What decides this upstream's speed, for the run's record."""
        return {
            "upstream": self.name,
            "model": str(self.path),
            "threads": self.threads,
            "threads_follow_load": not self.fixed,
            "other_work_cores": self.chosen.other if self.chosen else None,  # at the start
            "available_cores": self.chosen.available if self.chosen else None,  # probed where others were busy
            "poll": POLL,
            "slots": self.slots,
            "context_per_slot": self.context,
            "max_reply": MAX_REPLY,
            "thread_changes": list(self.governor.changes) if self.governor else [],  # (from, to, other, available)
        }

    def models(self) -> list[str]:
        return [self.model]

    def decoded_tokens(self) -> int | None:
        """Completion tokens decoded so far by the calls in flight (llama.cpp's /slots, on the
        server's private socket), for live progress; None when it cannot tell."""
        connection = _UnixHTTP(self._socket)
        try:
            connection.request("GET", "/slots", headers={"Authorization": f"Bearer {self._key}"})
            slots = json.loads(connection.getresponse().read())
            return sum(int(s["next_token"][0]["n_decoded"]) for s in slots if s.get("is_processing"))
        except (OSError, ValueError, KeyError, IndexError, TypeError, http.client.HTTPException):
            return None
        finally:
            connection.close()

    def _complete(self, request: dict[str, Any], abandoned: Callable[[], bool] | None) -> dict[str, Any]:
        body = request_body(request)
        start = time.monotonic()
        if abandoned is None:
            out = self.server.handle_chat_completions(body)  # thread-safe; waits for a free slot
        else:
            out = streamed.complete(self.server, body, abandoned)
        if isinstance(out, str):
            out = json.loads(out)
        if not isinstance(out, dict) or "choices" not in out:
            error = out.get("error", out) if isinstance(out, dict) else out
            message = error.get("message", error) if isinstance(error, dict) else error
            raise UpstreamError(f"local model: {message}", status=400, retryable=False)
        out["model"] = self.model
        out.setdefault("usage", {})["dgm_seconds"] = round(time.monotonic() - start, 3)
        self.last_timings = out.get("timings") or {}  # llama.cpp's own: prompt and generation speed
        return out

    # --- closing: no native thread decodes while the process exits ----------------------
    # Exit runs the runtime's C++ static destructors; under a thread still decoding that is a
    # segfault (seen after a second Ctrl-C). The server's own destructor stops llama.cpp's
    # loop thread and joins it, but only once no call holds the server: hence the count.
    def complete(
        self, request: dict[str, Any], timeout: float, abandoned: Callable[[], bool] | None = None
    ) -> dict[str, Any]:
        """One completion, counted while it runs; refused once `close` has begun. Decoding
        stops once `abandoned()` is true (`streamed.py`); `timeout` is the gateway's to keep."""
        with self.calls.hold():
            out = self._complete(request, abandoned)
        if self.calls.closed and not self.calls.count:
            self.server = None  # the last call that close() could not wait for
        out["dgm_timing"] = timing(out)
        return out

    @property
    def decoding(self) -> int:
        """Calls running in llama.cpp now (after `close`: those it did not wait for)."""
        return self.calls.count

    def load(self) -> str:
        """What this model is busy with, for the error of a call that timed out."""
        return f"the embedded model: {self.calls.count} call(s) in flight on {self.slots} decoding slot(s)"

    def close(self, wait_s: float = CLOSE_WAIT_S) -> int:
        """Refuse new calls, wait up to `wait_s` for those in flight, then drop the server (its
        destructor ends the decoding threads) and the private folder. Returns the calls still
        decoding, which keep the server alive: a process that has them must not exit through
        the interpreter's exit (`dgm.stopping.leave`). Idempotent."""
        if self.calls.close(wait_s):
            self.server = None
        else:
            log.warning("embedded model: %d call(s) still decoding after %.0fs", self.calls.count, wait_s)
        self.private.cleanup()
        return self.calls.count


def timing(reply: dict[str, Any]) -> dict[str, Any]:
    """Where a call's time went: waiting for a decoding slot (the rest of the call's time),
    the prompt (its tokens, those reused from the slot's cache) and the reply, from
    llama.cpp's `timings` and the call's time measured here (`usage.dgm_seconds`)."""
    t = reply.get("timings") or {}
    total = float((reply.get("usage") or {}).get("dgm_seconds") or 0.0)
    prompt_s, decode_s = float(t.get("prompt_ms") or 0) / 1000, float(t.get("predicted_ms") or 0) / 1000
    return {
        "total_s": round(total, 2),
        "queued_s": round(max(0.0, total - prompt_s - decode_s), 2),
        "prompt_s": round(prompt_s, 2),
        "prompt_tokens": t.get("prompt_n"),
        "cached_tokens": t.get("cache_n"),
        "decode_s": round(decode_s, 2),
        "decoded_tokens": t.get("predicted_n"),
    }


class _UnixHTTP(http.client.HTTPConnection):
    """HTTP to the embedded server's Unix socket (a second's patience: it is read for a status line)."""

    def __init__(self, path: str):
        super().__init__("localhost", timeout=1.0)
        self.path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)
