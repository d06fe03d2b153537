"""`dgm sandbox doctor`: for each backend, whether it works here and, if not, why and what to do."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass

from .base import Availability
from .registry import BACKENDS, get_backend


@dataclass(frozen=True)
class Finding:
    backend: str
    availability: Availability
    isolating: bool


def diagnose(names: list[str] | None = None) -> list[Finding]:
    findings = []
    for name in names or list(BACKENDS):
        backend = get_backend(name)
        findings.append(Finding(name, backend.availability(), backend.isolating))
    return findings


def notes() -> list[str]:
    """Machine-level facts that explain a failing backend."""
    out = []
    if os.geteuid() != 0:
        out.append(
            "not root: bwrap sessions run as your own uid, without per-session cgroups; building images needs root"
        )
    for tool in ("bwrap", "dockerd", "debootstrap"):
        if shutil.which(tool) is None:
            package = {"bwrap": "bubblewrap", "dockerd": "docker.io"}.get(tool, tool)
            out.append(f"{tool} is missing: apt-get install -y {package}")
    return out
