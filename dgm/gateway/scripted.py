"""The SCRIPTED upstream: deterministic replies from a script — the test double.

It is no model. Tests and documented demos use it so a whole run can be checked without
a network or a key. A script is JSON (or a dict):

    {"model": "scripted", "tool_calling": true,
     "rules": [{"when": {...}, "reply": {...}, "times": 2}, ...]}

A rule fires for the first request its `when` matches (every key must hold), at most
`times` times. `when` keys: `turn` (assistant messages so far), `contains` (regex over every
message), `last_contains` (regex over the last message), `system_contains`, `has_tools`,
`model`. `reply` keys: `content`; `tool_calls` as [{"name", "arguments"}]; `usage` to report
other token counts; or a fault:
`{"fault": "429", "retry_after": 0.1}`, `"500"`, `"503"`, `"reset"`, `{"fault": "hang", "seconds": 5}`.
Like a real model it stops at the request's `max_tokens`/`max_completion_tokens` (about
four characters a token): longer content is cut, finishing with "length", and a
`usage.completion_tokens` past it is reported as the cap.
"""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

from .upstream import UpstreamError, completion, estimate_tokens, prompt_tokens


def _text(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):
        content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    calls = message.get("tool_calls") or []
    return content + "".join(json.dumps(c.get("function", {})) for c in calls)


class ScriptedUpstream:
    name: ClassVar[str] = "scripted"
    usage: ClassVar[str] = "scripted:FILE"
    summary: ClassVar[str] = "the SCRIPTED test double: replies from a script"
    free: ClassVar[bool] = True  # a test double

    def __init__(self, script: dict[str, Any] | str | Path):
        if not isinstance(script, dict):
            path = Path(script)
            try:
                script = json.loads(path.read_text())
            except (OSError, json.JSONDecodeError) as exc:
                raise ValueError(f"cannot read the scripted-upstream script {path}: {exc}") from exc
        self.script = script
        self.model = script.get("model", "scripted")
        self.tool_calling = bool(script.get("tool_calling", True))
        self.note = "SCRIPTED test double: deterministic replies from a script, not a model"
        self.rules = list(script.get("rules", []))
        self.fired = [0] * len(self.rules)
        self.calls = 0
        self.lock = threading.Lock()

    def models(self) -> list[str]:
        return [self.model]

    def _matches(self, when: dict[str, Any], request: dict[str, Any]) -> bool:
        messages = request.get("messages", [])
        checks = {
            "turn": lambda v: sum(m.get("role") == "assistant" for m in messages) == v,
            "contains": lambda v: any(re.search(v, _text(m)) for m in messages),
            "last_contains": lambda v: bool(messages) and re.search(v, _text(messages[-1])) is not None,
            "system_contains": lambda v: any(re.search(v, _text(m)) for m in messages if m.get("role") == "system"),
            "has_tools": lambda v: bool(request.get("tools")) == v,
            "model": lambda v: request.get("model") == v,
        }
        unknown = when.keys() - checks.keys()
        if unknown:
            raise UpstreamError(f"scripted upstream: unknown rule keys {sorted(unknown)}", retryable=False)
        return all(checks[key](value) for key, value in when.items())

    def complete(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        with self.lock:
            self.calls += 1
            number = self.calls
            for i, rule in enumerate(self.rules):
                if "times" in rule and self.fired[i] >= rule["times"]:
                    continue
                if self._matches(rule.get("when", {}), request):
                    self.fired[i] += 1
                    reply = rule.get("reply", {})
                    break
            else:
                last = _text(request.get("messages", [{}])[-1])[:200]
                raise UpstreamError(
                    f"scripted upstream: no rule matches this request (last message: {last!r})",
                    status=400,
                    retryable=False,
                )
        return self._reply(reply, request, number)

    def _reply(self, reply: dict[str, Any], request: dict[str, Any], number: int) -> dict[str, Any]:
        fault = reply.get("fault")
        if fault == "hang":
            time.sleep(reply.get("seconds", 3600))
        elif fault in ("429", "500", "502", "503"):
            retry_after = reply.get("retry_after")
            raise UpstreamError(f"scripted fault: HTTP {fault}", status=int(fault), retry_after=retry_after)
        elif fault == "reset":
            raise UpstreamError("scripted fault: connection reset by peer")
        elif fault:
            raise UpstreamError(f"scripted upstream: unknown fault {fault!r}", retryable=False)
        calls = [
            {
                "id": f"call_{number}_{i}",
                "type": "function",
                "function": {
                    "name": c["name"],
                    "arguments": c["arguments"] if isinstance(c["arguments"], str) else json.dumps(c["arguments"]),
                },
            }
            for i, c in enumerate(reply.get("tool_calls", []))
        ]
        content, finish = reply.get("content"), reply.get("finish_reason")
        caps = [request[k] for k in ("max_tokens", "max_completion_tokens") if isinstance(request.get(k), int)]
        cap = min(caps) if caps else None
        if cap is not None and content and estimate_tokens(content) > cap:
            content, finish = content[: cap * 4], "length"
        produced = (content or "") + "".join(c["function"]["arguments"] for c in calls)
        usage = {
            "prompt_tokens": prompt_tokens(request.get("messages", [])),
            "completion_tokens": estimate_tokens(produced),
            **reply.get("usage", {}),
        }
        if cap is not None:
            usage["completion_tokens"] = min(usage["completion_tokens"], cap)
        return completion(
            request.get("model") or self.model, content, calls or None, usage, f"chatcmpl-scripted-{number}", finish
        )
