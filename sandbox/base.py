"""The sandbox interface: a `Backend` starts `Session`s from a `SandboxSpec`.

`Session` holds what every backend shares: the writable area, the mapping from sandbox
paths to host directories, `copy_in`/`copy_out`, and idempotent `close()`."""

from __future__ import annotations

import abc
import logging
import os
import re
import secrets
import stat
import weakref
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Protocol, TypeVar

from . import fs
from .cgroups import CgroupSet
from .errors import SandboxError, SessionClosed
from .live import LIVE
from .runner import LimitTracker, Watch
from .scratch import Scratch
from .spec import ExecResult, Mount, SandboxSpec

log = logging.getLogger(__name__)

SANDBOX_UID = 1000  # the sandbox user's uid inside every backend (the image's `agent`)


@dataclass(frozen=True)
class Availability:
    ok: bool
    detail: str  # what works, or exactly why not and what to install or start


class Backend(Protocol):
    name: str
    # Whether it keeps agent code from the host (no network, no host files): isolating
    # backends are picked automatically, in registry order, and must pass the attack suite.
    isolating: bool

    def availability(self) -> Availability: ...

    def start(self, spec: SandboxSpec) -> Session: ...

    def close_all(self) -> int: ...


def smoke_test(backend: Backend, timeout: float = 60.0) -> tuple[str | None, Session | None]:
    """Start a session and run python3 in it. Returns (why it failed, None), or (None, the
    session, closed) when it worked."""
    try:
        with backend.start(SandboxSpec()) as session:
            result = session.exec(["/usr/bin/python3", "-c", "print('ok')"], timeout=timeout)
    except Exception as exc:  # noqa: BLE001 - the doctor reports whatever stops a backend
        return f"{backend.name} cannot start a sandbox here: {exc}", None
    if result.stdout.strip() != "ok":
        return f"{backend.name} sandbox did not run python3: {result.stderr.strip()[-300:]}", None
    return None, session


def sessions_root() -> Path:
    """Where sessions keep their writable areas (one directory per session; see `live.py`)."""
    return LIVE.root()


_SESSION_NAME = re.compile(r"^(\d+)-[0-9a-f]{8}$")


def proc_stat(pid: int | str) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state first, then the parent
    pid, ...); the name is skipped whole, since it may hold spaces and parentheses."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _pid_alive(pid: int) -> bool:
    """Whether `pid` runs. A zombie does not: it is dead, its exit status not yet collected by
    a parent that may never do so (a driver killed under a reaper that does not reap)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return proc_stat(pid)[0] != "Z"
    except (OSError, IndexError):
        return True


def sweep_stale_sessions() -> int:
    """Remove writable areas and cgroups of sessions whose process is gone (a crashed run).
    Returns how many sessions were cleaned up."""
    from .cgroups import CgroupSet
    from .scratch import Scratch

    cleaned = 0
    for path in sessions_root().iterdir():
        match = _SESSION_NAME.match(path.name)
        if not match or _pid_alive(int(match.group(1))):
            continue
        log.info("removing stale sandbox session %s", path.name)
        group = CgroupSet.existing(f"dgm-{path.name}")
        if group is not None:
            group.remove()
        Scratch.attach(path).remove()
        cleaned += 1
    return cleaned


S = TypeVar("S", bound="Session")


def _source(mount: Mount) -> Path:
    if mount.source is None:
        raise SandboxError(f"the read-only mount {mount.target} has no source")
    return Path(mount.source)


class SessionTracker:
    """Mixin for backends: remembers the sessions it started, so a stopping run can close
    every sandbox still running (which ends the jobs using them) at once. Backends call
    `super().__init__()`."""

    def __init__(self) -> None:
        self._sessions: weakref.WeakSet[Session] = weakref.WeakSet()

    def _track(self, session: S) -> S:
        self._sessions.add(session)
        return session

    def close_all(self) -> int:
        sessions = [s for s in self._sessions if not s.closed]
        for session in sessions:
            session.close()
        return len(sessions)


class Session(abc.ABC):
    """One sandbox. Commands run one at a time; nothing they start outlives their `exec`."""

    def __init__(self, spec: SandboxSpec, owner: tuple[int, int] | None):
        self.spec = spec
        self.id = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.closed = False
        self.scratch = Scratch(sessions_root() / self.id, spec.limits.disk_mb, owner)
        self.host_dirs: dict[str, Path] = {}  # sandbox mount target -> host directory
        try:
            for i, mount in enumerate(spec.mounts):
                self.host_dirs[mount.target] = (
                    self.scratch.volume(mount, i) if mount.writable else _source(mount).resolve()
                )
        except BaseException:
            self.scratch.remove()
            raise
        LIVE.add(self)  # closed at process exit unless closed before

    # --- running ---------------------------------------------------------------------
    def exec(
        self,
        cmd: str | list[str],
        timeout: float | None = None,
        stdin: bytes | str | None = None,
        env: dict[str, str] | None = None,
        workdir: str | None = None,
    ) -> ExecResult:
        """Run `cmd` (a string goes through /bin/sh -c) and wait for it, at most `timeout`
        seconds (default: the spec's wall limit). Every process it started is gone after."""
        if self.closed:
            raise SessionClosed(f"session {self.id} is closed")
        argv = ["/bin/sh", "-c", cmd] if isinstance(cmd, str) else list(cmd)
        data = stdin.encode() if isinstance(stdin, str) else stdin
        return self._exec(
            argv,
            timeout or self.spec.limits.wall_s,
            data,
            {**self.spec.env, **(env or {})},
            workdir or self.spec.workdir,
        )

    def _tracker(self, timeout: float, cgroup: CgroupSet | None = None) -> LimitTracker:
        """The watchdog of one command, started now: the clock, the output, the writable
        area's cap, and the cgroup's counters where the backend has one."""
        watch = Watch(cgroup=cgroup, disk_full=self.scratch.over_cap, disk_enforced=self.scratch.mounted)
        return LimitTracker(watch, self.spec.limits, timeout)

    @abc.abstractmethod
    def _exec(
        self, argv: list[str], timeout: float, stdin: bytes | None, env: dict[str, str], workdir: str
    ) -> ExecResult: ...

    # --- files -----------------------------------------------------------------------
    def _locate(self, sandbox_path: str, writable: bool) -> tuple[Path, list[str]]:
        path = PurePosixPath(sandbox_path)
        for mount in sorted(self.spec.mounts, key=lambda m: -len(m.target)):
            if path == PurePosixPath(mount.target) or PurePosixPath(mount.target) in path.parents:
                if writable and not mount.writable:
                    raise SandboxError(f"{sandbox_path} is in the read-only mount {mount.target}")
                return self.host_dirs[mount.target], fs.split(str(path.relative_to(mount.target)))
        raise SandboxError(f"{sandbox_path} is not inside any mount of this sandbox")

    def copy_in(self, host_path: str | Path, sandbox_path: str) -> None:
        """Copy a host file or directory to `sandbox_path` (inside a writable mount)."""
        self._check_open()
        root, parts = self._locate(sandbox_path, writable=True)
        if not parts:
            raise SandboxError("copy_in needs a path below the mount point, not the mount itself")
        with fs.open_dir(root, parts[:-1], create=True, owner=self.scratch.owner) as fd:
            fs.copy_in(Path(host_path), fd, parts[-1], self.scratch.owner)

    def copy_out(self, sandbox_path: str, host_path: str | Path) -> Path:
        """Copy `sandbox_path` out to `host_path` (which must not exist). Symlinks come out
        as symlinks and are never followed, on the way or at the end."""
        self._check_open()
        host_path = Path(host_path)
        if host_path.exists() or host_path.is_symlink():
            raise SandboxError(f"{host_path} already exists")
        root, parts = self._locate(sandbox_path, writable=False)
        if not parts:
            host_path.mkdir(mode=0o700)
            with fs.open_dir(root, []) as fd:
                for entry in sorted(os.listdir(fd)):
                    fs.copy_out(fd, entry, host_path / entry)
                host_path.chmod(stat.S_IMODE(os.fstat(fd).st_mode) & 0o777 | 0o700)
            return host_path
        with fs.open_dir(root, parts[:-1]) as fd:
            fs.copy_out(fd, parts[-1], host_path)
        return host_path

    # --- lifetime ----------------------------------------------------------------------
    def _check_open(self) -> None:
        if self.closed:
            raise SessionClosed(f"session {self.id} is closed")

    def close(self) -> None:
        """Kill everything still running, remove the writable area. Safe to call twice."""
        if self.closed:
            return
        self.closed = True
        LIVE.discard(self)
        try:
            self._teardown()
        finally:
            self.scratch.remove()

    @abc.abstractmethod
    def _teardown(self) -> None: ...

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
