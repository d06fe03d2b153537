"""A finished chat.completion replayed as a server-sent-events stream of chunks."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def _chunk(done: dict[str, Any], delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
    return {
        "id": done.get("id", "chatcmpl"),
        "object": "chat.completion.chunk",
        "created": done.get("created", 0),
        "model": done.get("model"),
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }


def events(done: dict[str, Any], include_usage: bool) -> Iterator[bytes]:
    """`data: {...}` lines: role, content, each tool call, the finish reason, usage, [DONE]."""
    choice = (done.get("choices") or [{}])[0]
    message = choice.get("message") or {}
    chunks = [_chunk(done, {"role": "assistant", "content": ""}, None)]
    if message.get("content"):
        chunks.append(_chunk(done, {"content": message["content"]}, None))
    for i, call in enumerate(message.get("tool_calls") or []):
        delta = {"tool_calls": [{"index": i, "id": call.get("id"), "type": "function", "function": call["function"]}]}
        chunks.append(_chunk(done, delta, None))
    chunks.append(_chunk(done, {}, choice.get("finish_reason") or "stop"))
    if include_usage:
        chunks.append({**_chunk(done, {}, None), "choices": [], "usage": done.get("usage")})
    for chunk in chunks:
        yield b"data: " + json.dumps(chunk).encode() + b"\n\n"
    yield b"data: [DONE]\n\n"
