"""One registry of sandbox backends: name -> class. The CLI's choices come from it."""

from __future__ import annotations

from .base import Backend
from .bwrap import BwrapBackend
from .docker_backend import DockerBackend
from .errors import SandboxError
from .local import LocalBackend

BACKENDS: dict[str, type[Backend]] = {
    DockerBackend.name: DockerBackend,
    BwrapBackend.name: BwrapBackend,
    LocalBackend.name: LocalBackend,
}
# Picked automatically in this order; `local` only ever by name.
AUTO_ORDER = ("docker", "bwrap")


def get_backend(name: str, **options) -> Backend:
    try:
        cls = BACKENDS[name]
    except KeyError:
        raise SandboxError(f"unknown sandbox backend {name!r}; choose one of {', '.join(BACKENDS)}") from None
    return cls(**options)


def auto_backend() -> Backend:
    """The first backend of AUTO_ORDER that works here."""
    reasons = []
    for name in AUTO_ORDER:
        backend = get_backend(name)
        availability = backend.availability()
        if availability.ok:
            return backend
        reasons.append(f"{name}: {availability.detail}")
    raise SandboxError("no isolating sandbox backend works here:\n  " + "\n  ".join(reasons))
