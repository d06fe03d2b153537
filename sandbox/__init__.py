"""Isolation backends for untrusted agent code: docker, bwrap, local, behind one interface."""

from .base import Availability, Backend, Session
from .errors import BackendUnavailable, SandboxError, SessionClosed
from .registry import BACKENDS, auto_backend, get_backend, isolating, register
from .spec import SOCKET_PATH, ExecResult, Limits, Mount, SandboxSpec

__all__ = [
    "BACKENDS",
    "Availability",
    "Backend",
    "BackendUnavailable",
    "ExecResult",
    "Limits",
    "Mount",
    "SOCKET_PATH",
    "SandboxError",
    "SandboxSpec",
    "Session",
    "SessionClosed",
    "auto_backend",
    "get_backend",
    "isolating",
    "register",
]
