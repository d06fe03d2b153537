"""The judge: a code review of one evaluation's patch through the gateway, a score in [0, 1].

It sees the task's statement, the patch and the grading's outcome (resolved or not, and
why), never the hidden tests or the reference patch. The prompt and rubric are a file
(`--judge-prompt`, default prompts/judge.md beside this module); a run stores the text it
uses in its archive when it starts and uses that text from then on. The call is the
engine's own, made by the worker with a token pinned to the judge's model (role `judge`,
metered to the evaluation's job). The patch is agent-written: it is fenced between random
markers and the rubric tells the judge it is data; only the reply's last `SCORE:` line is
read, clamped to [0, 1]. A reply without one records no judgement."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from pathlib import Path

DEFAULT_PROMPT = Path(__file__).parent / "prompts" / "judge.md"
PATCH_LIMIT = 30_000  # characters of the patch shown
SCORE = re.compile(r"^\s*\**SCORE\**\s*[:=]\s*\**\s*([0-9]*\.?[0-9]+)", re.M | re.I)
MAX_TOKENS = 512


@dataclass(frozen=True)
class Judging:
    """What a worker needs to ask the judge: the job's judge token and the prompt text."""

    token: str
    prompt: str
    gate: float | None = None  # judge-first: review before grading; below this, no hidden test runs


@dataclass(frozen=True)
class Review:
    score: float
    rationale: str
    model: str


class JudgeError(Exception):
    """The judge gave no usable answer; the message says why."""


def render(prompt: str, statement: str, patch: str, outcome: str) -> str:
    marker = f"=====PATCH-{secrets.token_hex(8)}====="
    shown = patch if len(patch) <= PATCH_LIMIT else patch[:PATCH_LIMIT] + "\n[... patch clipped ...]"
    return prompt.format(statement=statement.strip(), outcome=outcome, patch=shown or "(empty)", marker=marker)


def score_of(reply: str) -> float:
    found = SCORE.findall(reply)
    if not found:
        raise JudgeError("the judge's reply has no SCORE line")
    return min(max(float(found[-1]), 0.0), 1.0)


def review(socket: str, judging: Judging, statement: str, patch: str, outcome: str, timeout: float = 900) -> Review:
    """One review through the gateway at `socket` (raises JudgeError)."""
    import httpx2
    import openai

    client = openai.OpenAI(
        api_key=judging.token,
        base_url="http://dgm-gateway/v1",
        max_retries=0,  # the gateway retries
        http_client=httpx2.Client(transport=httpx2.HTTPTransport(uds=socket), timeout=timeout),
    )
    messages = [{"role": "user", "content": render(judging.prompt, statement, patch, outcome)}]
    try:
        reply = client.chat.completions.create(model="default", messages=messages, temperature=0, max_tokens=MAX_TOKENS)
    except openai.APIError as exc:
        raise JudgeError(f"the judge's call failed: {exc}") from exc
    text = reply.choices[0].message.content or ""
    return Review(score_of(text), text[-2000:], reply.model or "")
