"""Any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, a llama.cpp server, ...) through
the `openai` package. Only the gateway, on the host, ever holds its key."""

from __future__ import annotations

import os
from typing import Any, ClassVar

from .upstream import UpstreamError


class OpenAIUpstream:
    name: ClassVar[str] = "openai"
    usage: ClassVar[str] = "openai[:BASE_URL]"
    summary: ClassVar[str] = "any OpenAI-compatible endpoint (key from OPENAI_API_KEY)"
    free: ClassVar[bool] = False  # priced: --price, dgm.toml, genai-prices

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        model: str | None = None,
        tool_calling: bool = True,
    ):
        import openai

        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        key = api_key or os.environ.get("OPENAI_API_KEY")
        if not key and not self.base_url:
            raise UpstreamError(
                "the openai upstream needs OPENAI_API_KEY (or a base URL of a local server)", retryable=False
            )
        # The gateway does its own retries; the client must not multiply them.
        self.client = openai.OpenAI(api_key=key or "unused", base_url=self.base_url, max_retries=0)
        self.model = model  # None: the endpoint's models (DGM_MODEL is resolved into the run's config)
        self.tool_calling = tool_calling
        self.note = f"OpenAI-compatible endpoint {self.base_url or 'api.openai.com'}"

    def models(self) -> list[str]:
        if self.model:
            return [self.model]
        try:
            return [m.id for m in self.client.models.list()]
        except Exception as exc:
            raise UpstreamError(f"cannot list the endpoint's models: {exc}") from exc

    def complete(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        import openai

        body = {k: v for k, v in request.items() if k not in ("stream", "stream_options")}
        try:
            reply = self.client.chat.completions.create(**body, timeout=timeout)
            if not hasattr(reply, "model_dump"):  # a body the client could not parse into a completion
                raise UpstreamError(f"upstream answered something that is not a chat completion: {str(reply)[:200]!r}")
            return reply.model_dump(exclude_none=True)
        except openai.APITimeoutError as exc:
            raise UpstreamError(f"upstream timed out after {timeout:g}s") from exc
        except openai.APIConnectionError as exc:
            raise UpstreamError(f"cannot reach the upstream: {exc}") from exc
        except openai.APIStatusError as exc:
            retry_after = exc.response.headers.get("retry-after")
            raise UpstreamError(
                f"upstream answered HTTP {exc.status_code}: {exc.message}",
                status=exc.status_code,
                retry_after=float(retry_after) if retry_after and retry_after.replace(".", "", 1).isdigit() else None,
                retryable=exc.status_code in (408, 409, 429) or exc.status_code >= 500,
            ) from exc
        except (openai.APIError, ValueError) as exc:  # malformed or truncated replies: worth another try
            raise UpstreamError(f"upstream reply unusable: {exc.__class__.__name__}: {str(exc)[:300]}") from exc
