"""The LOCAL upstream: a small GGUF model embedded through llama-cpp-python.

Offline and weak: it needs no network and no key, so a new user sees a whole run on a
bare machine, but it cannot drive tool calls, so agents get the text protocol. Real runs
use a real endpoint (`--fm openai`)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

from .upstream import UpstreamError

N_CTX = 8192


class LocalUpstream:
    name: ClassVar[str] = "embedded"
    usage: ClassVar[str] = "embedded[:GGUF_PATH]"
    summary: ClassVar[str] = "the embedded model: offline and weak"
    free: ClassVar[bool] = True  # the embedded model runs here

    def __init__(self, model_path: str | Path | None = None, threads: int | None = None):
        from dgm import model as local_model

        self.path = Path(model_path) if model_path else local_model.model_path()
        if not self.path.exists():
            raise UpstreamError(
                f"no local model at {self.path}: run `dgm model install` (or `make local-model`)", retryable=False
            )
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise UpstreamError("llama-cpp-python is not installed: run `dgm model install`", retryable=False) from exc
        # One thread on a shared machine; more only when asked for.
        self.threads = threads or int(os.environ.get("DGM_LOCAL_THREADS", "1"))
        self.llm = Llama(model_path=str(self.path), n_ctx=N_CTX, n_threads=self.threads, verbose=False)
        self.lock = threading.Lock()  # llama.cpp contexts are not re-entrant
        self.model = local_model.MODEL_NAME
        self.tool_calling = False
        self.note = (
            "LOCAL embedded model: offline and weak (Qwen2.5-Coder-1.5B Q4_K_M); use a real endpoint for real runs"
        )

    def models(self) -> list[str]:
        return [self.model]

    def complete(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        kwargs = {k: request[k] for k in ("temperature", "top_p", "max_tokens", "stop", "seed") if k in request}
        kwargs.setdefault("max_tokens", 1024)
        start = time.monotonic()
        with self.lock:
            try:
                out = self.llm.create_chat_completion(messages=request["messages"], **kwargs)
            except ValueError as exc:  # e.g. the prompt does not fit the context
                raise UpstreamError(f"local model: {exc}", status=400, retryable=False) from exc
        out["model"] = self.model
        out.setdefault("usage", {})["dgm_seconds"] = round(time.monotonic() - start, 3)
        return out
