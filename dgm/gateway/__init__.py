"""The foundation-model gateway: sandboxed agents reach a model only through it."""

from .policy import Budget, Prices, RetryPolicy
from .registry import UPSTREAMS, make_upstream
from .server import Gateway, GatewayError
from .upstream import Upstream, UpstreamError, request_hash

__all__ = [
    "UPSTREAMS",
    "Budget",
    "Gateway",
    "GatewayError",
    "Prices",
    "RetryPolicy",
    "Upstream",
    "UpstreamError",
    "make_upstream",
    "request_hash",
]
