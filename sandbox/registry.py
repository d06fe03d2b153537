"""One registry of sandbox backends: name -> class. The CLI's choices, the automatic pick,
the doctor and the attack suite all come from it: a new backend is one module and one entry
here (or `register`)."""

from __future__ import annotations

from typing import Any

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


# Names a backend was known by before; still accepted wherever a backend is named.
ALIASES = {"local": "unsandboxed"}


def canonical(name: str) -> str:
    """The registry's name for `name` (an old name -> the current one)."""
    return ALIASES.get(name, name)


def register(cls: type[Backend]) -> type[Backend]:
    """Add a backend class (e.g. from a plugin) under its `name`."""
    if cls.name in BACKENDS and BACKENDS[cls.name] is not cls:
        raise SandboxError(f"a sandbox backend named {cls.name!r} is registered already")
    BACKENDS[cls.name] = cls
    return cls


def isolating() -> tuple[str, ...]:
    """The backends that isolate, in the order they are picked automatically; the others
    (`unsandboxed`) only ever by name."""
    return tuple(name for name, cls in BACKENDS.items() if cls.isolating)


def get_backend(name: str, **options: Any) -> Backend:
    try:
        cls = BACKENDS[canonical(name)]
    except KeyError:
        raise SandboxError(f"unknown sandbox backend {name!r}; choose one of {', '.join(BACKENDS)}") from None
    return cls(**options)


def auto_backend() -> Backend:
    """The first isolating backend that works here."""
    reasons = []
    for name in isolating():
        backend = get_backend(name)
        availability = backend.availability()
        if availability.ok:
            return backend
        reasons.append(f"{name}: {availability.detail}")
    raise SandboxError("no isolating sandbox backend works here:\n  " + "\n  ".join(reasons))
