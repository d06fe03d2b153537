"""A chat completion of the embedded model decoded as a stream, so that it can stop midway.

A call whose caller is gone (its job ended, or the gateway gave up waiting) would otherwise
decode to its cap: up to 4096 tokens, minutes at a few tokens a second, holding a slot and
the cores that the run's other jobs wait for. Streamed, the decoding stops at the next
token once `abandoned()` says so (not during the prompt, which llama.cpp processes in one
go). The chunks are put back together into the reply a plain call gives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .upstream import UpstreamError


def complete(server: Any, body: dict[str, Any], abandoned: Callable[[], bool]) -> dict[str, Any]:
    """`body` answered by llama.cpp's `server`, stopped once `abandoned()` is true."""
    chunks: list[dict[str, Any]] = []
    stopped = False

    def on_chunk(chunk: dict[str, Any]) -> bool:
        nonlocal stopped
        chunks.append(chunk)
        stopped = stopped or abandoned()
        return stopped  # True: llama.cpp stops decoding this call

    server.handle_chat_completions({**body, "stream": True, "stream_options": {"include_usage": True}}, on_chunk)
    if stopped:
        raise UpstreamError(
            f"abandoned by its caller after {sum(1 for c in chunks if _text(c))} tokens: decoding stopped",
            retryable=False,
        )
    return assemble(chunks)


def _text(chunk: dict[str, Any]) -> str:
    choices = chunk.get("choices") or [{}]
    return ((choices[0].get("delta") or {}).get("content")) or ""


def assemble(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """The reply a plain (non-streamed) call gives, from the chunks of a streamed one; an
    error chunk is returned as it came, for the caller's error path."""
    for chunk in chunks:
        if not isinstance(chunk, dict) or "error" in chunk:
            return chunk if isinstance(chunk, dict) else {"error": {"message": str(chunk)}}
    if not chunks:
        return {"error": {"message": "the model returned nothing"}}
    finish = next((c["choices"][0].get("finish_reason") for c in reversed(chunks) if _finished(c)), None)
    last = next((c for c in reversed(chunks) if "usage" in c), {})
    reply = {
        "id": chunks[0].get("id"),
        "object": "chat.completion",
        "created": chunks[0].get("created"),
        "model": chunks[0].get("model"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "".join(_text(c) for c in chunks)},
                "finish_reason": finish,
            }
        ],
        "usage": last.get("usage") or {},
    }
    if "timings" in last:
        reply["timings"] = last["timings"]
    return reply


def _finished(chunk: dict[str, Any]) -> bool:
    choices = chunk.get("choices") or []
    return bool(choices) and bool(choices[0].get("finish_reason"))
