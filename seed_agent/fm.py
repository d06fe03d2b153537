"""The model, reached only through the gateway socket in DGM_FM_SOCKET.

OPENAI_API_KEY inside a sandbox is this job's gateway token, never a real key."""

import os
from dataclasses import dataclass, field


class BudgetExhausted(Exception):
    """The gateway refused: a token or dollar budget is spent."""


class ModelError(Exception):
    """The model call failed after the gateway's retries."""


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens


# The most a reply may run to on the text protocol: a whole source file fits, and a weak model
# that falls into repeating itself stops there instead of at its context's end (on the
# embedded model, 5,000 tokens at a few tokens a second: over 15 minutes of a decoding slot).
TEXT_REPLY_TOKENS = 3072


@dataclass
class Model:
    client: object
    name: str = "default"
    tool_calling: bool = True
    usage: Usage = field(default_factory=Usage)

    def chat(
        self, messages: list[dict], tools: list[dict] | None = None, temperature: float = 0.0, model: str | None = None
    ) -> dict:
        """One completion; returns the assistant message as a plain dict. `model`: another
        model name than this one's, e.g. a role the gateway grants by name ("diagnose")."""
        import openai

        kwargs = {"model": model or self.name, "messages": messages, "temperature": temperature}
        if tools:
            kwargs["tools"] = tools
        if not self.tool_calling:
            kwargs["max_tokens"] = TEXT_REPLY_TOKENS
        try:
            reply = self.client.chat.completions.create(**kwargs)
        except openai.APIStatusError as exc:
            body = exc.body if isinstance(exc.body, dict) else {}
            kind = (body.get("error") or body).get("type") if isinstance(body, dict) else None
            if exc.status_code == 429 and kind == "budget_exhausted":
                raise BudgetExhausted(exc.message) from exc
            raise ModelError(f"HTTP {exc.status_code}: {exc.message}") from exc
        except openai.APIError as exc:
            raise ModelError(str(exc)) from exc
        if reply.usage:
            self.usage.prompt_tokens += reply.usage.prompt_tokens or 0
            self.usage.completion_tokens += reply.usage.completion_tokens or 0
        self.usage.calls += 1
        message = reply.choices[0].message
        out = {"role": "assistant", "content": message.content or ""}
        if message.tool_calls:
            out["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.function.name, "arguments": c.function.arguments},
                }
                for c in message.tool_calls
            ]
        return out


def connect() -> Model:
    """The model behind the gateway. DGM_PROTOCOL=tools|text overrides the gateway's advice
    on whether tool calls are reliable; DGM_MODEL picks a model (default: the gateway's)."""
    import openai

    try:
        import httpx2 as httpx
    except ImportError:  # older openai releases ship httpx itself
        import httpx
    socket_path = os.environ.get("DGM_FM_SOCKET")
    http_client = httpx.Client(transport=httpx.HTTPTransport(uds=socket_path), timeout=900) if socket_path else None
    client = openai.OpenAI(
        base_url=os.environ.get("DGM_FM_BASE_URL", "http://dgm-gateway/v1"),
        api_key=os.environ.get("OPENAI_API_KEY", "missing"),
        max_retries=0,  # the gateway retries
        http_client=http_client,
    )
    model = Model(client, name=os.environ.get("DGM_MODEL", "default"))
    protocol = os.environ.get("DGM_PROTOCOL", "auto")
    if protocol == "auto":
        try:
            info = client.models.list().data[0].model_dump()
            model.tool_calling = bool((info.get("dgm") or {}).get("tool_calling", True))
        except (openai.APIError, IndexError):  # unknown: assume a capable endpoint
            model.tool_calling = True
    else:
        model.tool_calling = protocol == "tools"
    return model
