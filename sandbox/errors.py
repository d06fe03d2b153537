"""Errors raised by the sandbox layer, each with a message for a human."""


class SandboxError(Exception):
    """Base class for sandbox errors."""


class BackendUnavailable(SandboxError):
    """The backend cannot run on this machine; the message says why and what to do."""


class SessionClosed(SandboxError):
    """The session was closed; it cannot run anything more."""
