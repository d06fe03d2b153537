"""The foundation-model gateway: sandboxed agents reach a model only through it."""

from .admission import Limits
from .connections import Deadlines
from .policy import Budget, RetryPolicy
from .pricing import Price, Prices
from .registry import UPSTREAMS, make_upstream, upstream_name
from .server import Gateway, GatewayError
from .upstream import Upstream, UpstreamError, request_hash

__all__ = [
    "UPSTREAMS",
    "Budget",
    "Deadlines",
    "Gateway",
    "GatewayError",
    "Limits",
    "Price",
    "Prices",
    "RetryPolicy",
    "Upstream",
    "UpstreamError",
    "make_upstream",
    "request_hash",
    "upstream_name",
]
