"""The errors the gateway answers to an agent."""

from __future__ import annotations


class GatewayError(Exception):
    """An error answered to the agent: HTTP status, OpenAI-style error type, message."""

    def __init__(self, status: int, kind: str, message: str):
        super().__init__(message)
        self.status, self.kind = status, kind


class BudgetRefused(GatewayError):
    """A call the job's or the run's budget cannot pay for (HTTP 429, not to be retried).
    `final`: what is left would not pay for one full-size call, so the budget is used up;
    `wait`: only the calls in flight keep this one out (it may fit once they end)."""

    def __init__(self, scope: str, limit: str, message: str, final: bool, wait: bool = False):
        super().__init__(429, "budget_exhausted", message)
        self.scope, self.limit, self.final, self.wait = scope, limit, final, wait


def bad_request(message: str) -> GatewayError:
    return GatewayError(400, "invalid_request_error", f"dgm gateway: {message}")
