"""What the gateway forwards to: the `Upstream` protocol, its error, and request hashing
(the registry of upstreams is `registry.py`).

An upstream takes an OpenAI chat-completions request (a dict) and returns a complete
`chat.completion` object (a dict, with `usage`). Streaming is the gateway's business. One that
computes in this process (the embedded model) also has `computes_here` (a call that timed
out is waited for, never sent again), `load()` (what it is busy with, for a timeout's
error), `close(wait_s)` (the gateway calls it when it closes) and `decoding` (calls still
running after that: see `dgm.stopping.leave`)."""

from __future__ import annotations

import hashlib
import json
from typing import Any, ClassVar, Protocol

# Request fields that change what a model answers; the hash of these keys a reply for replay.
# max_tokens and max_completion_tokens are left out: the gateway sets them from the budgets
# left, which differ between a run and its replay.
ANSWER_FIELDS = (
    "model",
    "messages",
    "tools",
    "tool_choice",
    "temperature",
    "top_p",
    "stop",
    "response_format",
    "seed",
    "n",
    "presence_penalty",
    "frequency_penalty",
)


class UpstreamError(Exception):
    """A failed upstream call. `retryable` errors (429, 5xx, connection, timeout) are retried."""

    def __init__(
        self, message: str, status: int | None = None, retry_after: float | None = None, retryable: bool = True
    ):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.retryable = retryable


class Upstream(Protocol):
    name: ClassVar[str]
    usage: ClassVar[str]  # how --fm names it, e.g. "openai[:BASE_URL]"
    summary: ClassVar[str]  # one line for --help
    free: ClassVar[bool]  # True: its calls cost nothing (no price is looked up for its models)
    tool_calling: bool  # False: tool calls are unreliable here, agents should use the text protocol
    note: str  # one line a user sees next to the model, e.g. "offline and weak"

    def models(self) -> list[str]: ...

    def complete(self, request: dict[str, Any], timeout: float) -> dict[str, Any]: ...

    # Optional, as class flags: `computes_here` (the call runs on this machine: a timed-out
    # call is waited on, not sent again) and `cancellable` (complete() also takes
    # `abandoned`, a callable that turns true once no one waits for the reply).


def request_hash(request: dict[str, Any]) -> str:
    key = {k: request[k] for k in ANSWER_FIELDS if k in request}
    return hashlib.sha256(json.dumps(key, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def estimate_tokens(text: str) -> int:
    """A deterministic stand-in for a tokenizer (about four characters a token)."""
    return (len(text) + 3) // 4


def prompt_tokens(messages: list[dict[str, Any]]) -> int:
    total = 0
    for message in messages:
        content = message.get("content") or ""
        if isinstance(content, list):
            content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
        total += 4 + estimate_tokens(content) + estimate_tokens(json.dumps(message.get("tool_calls") or ""))
    return total


def completion(
    model: str,
    content: str | None,
    tool_calls: list[dict[str, Any]] | None,
    usage: dict[str, int],
    completion_id: str,
    finish_reason: str | None = None,
) -> dict[str, Any]:
    """A `chat.completion` object in OpenAI's shape."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": finish_reason or ("tool_calls" if tool_calls else "stop"),
            }
        ],
        "usage": {**usage, "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]},
    }
