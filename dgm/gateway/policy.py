"""Retries with backoff and jitter, and budgets."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class RetryPolicy:
    """`attempts` tries in all; waits grow from `base_s` doubling up to `max_s`, times a
    jitter factor in [0.5, 1.5); a Retry-After from the upstream is honoured (capped at
    `max_retry_after_s`). `timeout_s` bounds each try."""

    attempts: int = 5
    base_s: float = 1.0
    max_s: float = 60.0
    timeout_s: float = 300.0
    max_retry_after_s: float = 300.0

    def wait(self, attempt: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait after failed try number `attempt` (1-based)."""
        if retry_after is not None and retry_after > 0:
            return min(retry_after, self.max_retry_after_s)
        return min(self.max_s, self.base_s * 2 ** (attempt - 1)) * rng.uniform(0.5, 1.5)


@dataclass(frozen=True)
class Budget:
    """A spending limit; None means unlimited."""

    tokens: int | None = None
    usd: float | None = None

    def exceeded(self, tokens: int, usd: float) -> str | None:
        """Which limit `tokens`/`usd` reached, or None."""
        if self.tokens is not None and tokens >= self.tokens:
            return f"{self.tokens} tokens"
        if self.usd is not None and usd >= self.usd:
            return f"${self.usd:g}"
        return None
