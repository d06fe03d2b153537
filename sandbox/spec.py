"""What a sandbox is asked for (`SandboxSpec`) and what one command gives back (`ExecResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Literal

from .errors import SandboxError

LimitHit = Literal["memory", "cpu", "pids", "disk", "output", "wall"]
# Which limit a result names when several fired: causes before symptoms (a fork bomb
# floods stderr with errors; it is still a fork bomb).
LIMIT_PRECEDENCE: tuple[LimitHit, ...] = ("memory", "pids", "cpu", "disk", "output", "wall")

SOCKET_PATH = "/run/dgm/fm.sock"  # where the spec's Unix socket appears inside the sandbox
CLIP_MARKER = "\n[dgm-sandbox: output clipped at {limit} bytes]\n"


@dataclass(frozen=True)
class Mount:
    """A directory inside the sandbox.

    Read-only mounts show the host directory itself. Writable mounts are the sandbox's
    own: they start as a copy of `source` (or empty when `source` is None), live in the
    session's size-capped writable area, and never touch the host directory; results come
    out only through `Session.copy_out`."""

    target: str
    source: Path | None = None
    writable: bool = False

    def __post_init__(self) -> None:
        path = PurePosixPath(self.target)
        if not path.is_absolute() or ".." in path.parts or str(path) == "/":
            raise SandboxError(f"mount target must be an absolute path below /, got {self.target!r}")
        if not self.writable and self.source is None:
            raise SandboxError(f"read-only mount {self.target} needs a source directory")


@dataclass(frozen=True)
class Limits:
    wall_s: float = 600.0  # default timeout of one exec
    cpu_s: float = 600.0  # CPU seconds, summed over every process of one exec
    memory_mb: int = 2048
    pids: int = 256
    disk_mb: int = 1024  # all writable areas together, /tmp included
    output_bytes: int = 1_000_000  # stdout + stderr of one exec; past it the exec is killed


@dataclass(frozen=True)
class SandboxSpec:
    mounts: tuple[Mount, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    workdir: str = "/tmp"
    limits: Limits = Limits()
    socket: Path | None = None  # a host Unix socket, reachable inside at SOCKET_PATH
    image: str | None = None  # a task's own image (bwrap runs its layers or its unpacked filesystem); None: dgm's

    def __post_init__(self) -> None:
        targets = [m.target.rstrip("/") for m in self.mounts]
        if len(set(targets)) != len(targets):
            raise SandboxError(f"two mounts share a target: {sorted(targets)}")
        if self.socket is not None and not Path(self.socket).is_socket():
            raise SandboxError(f"{self.socket} is not a Unix socket")


@dataclass(frozen=True)
class ExecResult:
    exit_code: int  # negative: killed by that signal
    stdout: str
    stderr: str
    timed_out: bool
    duration_s: float
    limit_hit: LimitHit | None = None

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and self.limit_hit is None
