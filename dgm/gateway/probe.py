"""One completion through a running gateway, the way an agent makes it (openai client over
the Unix socket); used by `dgm model check` and the gateway benchmark."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .server import Gateway


@dataclass(frozen=True)
class Answer:
    text: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float


def client(gateway: Gateway, token: str):
    import httpx2
    import openai

    transport = httpx2.HTTPTransport(uds=str(gateway.socket_path))
    return openai.OpenAI(
        api_key=token,
        base_url="http://dgm-gateway/v1",
        max_retries=0,
        http_client=httpx2.Client(transport=transport, timeout=900),
    )


def ask(gateway: Gateway, prompt: str, max_tokens: int = 128) -> Answer:
    token = gateway.issue_token()
    try:
        start = time.monotonic()
        reply = client(gateway, token).chat.completions.create(
            model="default", messages=[{"role": "user", "content": prompt}], max_tokens=max_tokens, temperature=0
        )
        seconds = time.monotonic() - start
    finally:
        gateway.revoke_token(token)
    usage = reply.usage
    return Answer(
        reply.choices[0].message.content or "",
        reply.model,
        usage.prompt_tokens if usage else 0,
        usage.completion_tokens if usage else 0,
        seconds,
    )
