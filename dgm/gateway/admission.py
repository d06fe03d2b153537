"""The per-request checks, before anything reaches the upstream. Everything an agent sends
is hostile: the model is pinned, `n > 1` and non-text content are refused, and the
completion length is set by the gateway (the agent's own cap only ever lowers it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import bad_request

DEFAULT_NAMES = (None, "", "default")  # these mean the pinned model
COMPLETION_FIELDS = ("max_tokens", "max_completion_tokens")
# Models that take only max_completion_tokens (OpenAI's reasoning models); others get max_tokens.
COMPLETION_ONLY_PREFIXES = ("o1", "o3", "o4", "gpt-5")
# An honest agent opens one connection per call it has under way (at most job_concurrency,
# plus the ones refused for it) and its client keeps a few idle ones, which the gateway
# closes after connections.IDLE_S: 32, and never under 8 per call in flight, is far above that.
JOB_CONNECTIONS = 32


@dataclass(frozen=True)
class Limits:
    """Per-call and per-job caps. `max_call_tokens`: the most completion tokens one call may
    ask for; `max_request_bytes`: the largest request body read (larger: 413 unread);
    `job_concurrency`: model calls one job may have in flight (more: 429);
    `job_connections`: connections one job may have open (more: 429 before the body is
    read); None: JOB_CONNECTIONS, or 8 per call in flight if that is more."""

    max_call_tokens: int = 16_384
    max_request_bytes: int = 4 * 2**20
    job_concurrency: int = 4
    job_connections: int | None = None

    def connection_cap(self) -> int:
        if self.job_connections is not None:
            return self.job_connections
        return max(JOB_CONNECTIONS, 8 * self.job_concurrency)


def pin(request: dict[str, Any], allowed: str, roles: list[str] | None = None) -> dict[str, Any]:
    """The request with its model pinned to `allowed`; another model name is refused (400),
    saying which names the job may use (`roles`: role names it may ask for instead)."""
    wanted = request.get("model")
    if wanted in DEFAULT_NAMES:
        return {**request, "model": allowed}
    if wanted != allowed:
        names = ", ".join(repr(n) for n in [allowed, "default", *(roles or [])])
        raise bad_request(f"model {wanted!r} is not allowed here; this job may use {names}")
    return request


def check(request: dict[str, Any]) -> int | None:
    """Refuse what the gateway does not pass on; return the agent's own completion cap, if any."""
    n = request.get("n", 1)
    if n != 1 or isinstance(n, bool):
        raise bad_request(f"n = {n!r} is refused: one completion per call (n = 1)")
    for i, message in enumerate(request["messages"]):
        if not isinstance(message, dict):
            raise bad_request(f"messages[{i}] is not an object")
        content = message.get("content")
        if isinstance(content, list):
            kinds = {part.get("type") if isinstance(part, dict) else type(part).__name__ for part in content}
            if kinds - {"text"}:
                raise bad_request(f"messages[{i}] has content parts of type {sorted(map(str, kinds))}; only text")
        elif content is not None and not isinstance(content, str):
            raise bad_request(f"messages[{i}].content must be text")
    caps = []
    for name in COMPLETION_FIELDS:
        value = request.get(name)
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise bad_request(f"{name} = {value!r} is not a positive whole number")
        caps.append(value)
    return min(caps) if caps else None


def with_completion_cap(request: dict[str, Any], cap: int) -> dict[str, Any]:
    """The request with the gateway's completion cap in the field(s) the model reads."""
    sent = [name for name in COMPLETION_FIELDS if request.get(name) is not None]
    if not sent:
        model = str(request["model"]).lower().rsplit("/", 1)[-1]
        sent = ["max_completion_tokens" if model.startswith(COMPLETION_ONLY_PREFIXES) else "max_tokens"]
    return {**request, **dict.fromkeys(sent, cap)}
