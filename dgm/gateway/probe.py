"""Calls through a running gateway, the way an agent makes them (openai client over the Unix
socket): one completion for `dgm model check` and the gateway benchmark, and greedy callers
for the budget tests and benchmark."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
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


def call_until_refused(
    gateway: Gateway, tokens: Iterable[str], threads_per_token: int, max_calls: int = 1000
) -> list[str]:
    """Threads that each call with their token until the gateway refuses for a spent budget
    (a refusal for too many calls in flight is tried again); the refusal messages, one per
    thread that was refused."""
    import openai

    refusals: list[str] = []

    def caller(token: str) -> None:
        agent = client(gateway, token)
        for _ in range(max_calls):
            try:
                agent.chat.completions.create(model="default", messages=[{"role": "user", "content": "more"}])
            except openai.RateLimitError as exc:
                if exc.body["type"] == "budget_exhausted":
                    refusals.append(exc.message)
                    return

    threads = [threading.Thread(target=caller, args=(t,)) for t in tokens for _ in range(threads_per_token)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return refusals
