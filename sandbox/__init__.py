"""Isolation backends for untrusted agent code: docker, bwrap (and unsandboxed), behind one interface."""

from .base import Availability, Backend, Session
from .errors import BackendUnavailable, SandboxError, SessionClosed
from .registry import ALIASES, BACKENDS, auto_backend, canonical, get_backend, isolating, register
from .spec import SOCKET_PATH, ExecResult, Limits, Mount, SandboxSpec

__all__ = [
    "ALIASES",
    "BACKENDS",
    "SOCKET_PATH",
    "Availability",
    "Backend",
    "BackendUnavailable",
    "ExecResult",
    "Limits",
    "Mount",
    "SandboxError",
    "SandboxSpec",
    "Session",
    "SessionClosed",
    "auto_backend",
    "canonical",
    "get_backend",
    "isolating",
    "register",
]
