"""bubblewrap backend: no daemon, a fresh set of namespaces for every command.

The sandbox sees the image rootfs read-only (never the host's own files), its writable
mounts and /tmp from the session's capped area, and nothing of the network. As root,
commands run as an unprivileged host uid of their own (so RLIMIT_NPROC is per session)
inside a per-session cgroup for memory and processes."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shlex
import shutil
import subprocess
from pathlib import Path

from . import foreign, image, runner, variant
from .base import SANDBOX_UID, Availability, Session, SessionTracker, sessions_root, smoke_test, sweep_stale_sessions
from .cgroups import CgroupSet
from .errors import BackendUnavailable
from .layers import Layers
from .spec import SOCKET_PATH, ExecResult, SandboxSpec

UID_BASE = 200_000  # host uids for sessions when run as root: UID_BASE + slot
UID_SLOTS = 4096
SKIP_TOP = {"proc", "dev", "sys", "tmp", "run", image.COMPLETE_MARKER}

# Runs as root on the host: mounts an image's layers (in a mount namespace of its own, so
# the mount ends with the command), joins the session cgroups, then becomes the session's uid.
_ENTER = (
    'if [ -n "$DGM_ROOT_MOUNT" ]; then eval "$DGM_ROOT_MOUNT" || exit 125; fi; '
    'for f in $DGM_CGROUP_PROCS; do echo $$ > "$f" || exit 125; done; exec "$@"'
)


class BwrapBackend(SessionTracker):
    name = "bwrap"
    isolating = True

    def __init__(self, rootfs: Path | None = None):
        super().__init__()
        self.rootfs = Path(rootfs) if rootfs else None
        self._swept = False

    def _rootfs(self, spec: SandboxSpec) -> Path | Layers:
        if spec.image:
            return variant.rootfs(spec.image) or foreign.rootfs(spec.image)
        return self.rootfs or image.rootfs_dir()

    def availability(self) -> Availability:
        if shutil.which("bwrap") is None:
            return Availability(False, "bubblewrap is not installed: apt-get install -y bubblewrap")
        rootfs = self.rootfs or image.rootfs_dir()
        if not image.rootfs_ready(rootfs):
            return Availability(False, f"no sandbox rootfs at {rootfs}: run `dgm sandbox build --offline` as root")
        failure, session = smoke_test(self)
        if failure:
            return Availability(False, failure)
        cg = (
            "cgroups for memory/pids"
            if getattr(session, "cgroup_used", False)
            else "rlimits only (no writable cgroup tree)"
        )
        return Availability(True, f"bubblewrap with rootfs {rootfs}; {cg}")

    def start(self, spec: SandboxSpec) -> BwrapSession:
        if shutil.which("bwrap") is None:
            raise BackendUnavailable("bubblewrap is not installed: apt-get install -y bubblewrap")
        rootfs = self._rootfs(spec)
        if isinstance(rootfs, Path) and not image.rootfs_ready(rootfs):
            raise BackendUnavailable(f"no sandbox rootfs at {rootfs}: run `dgm sandbox build --offline` as root")
        if not self._swept:
            sweep_stale_sessions()
            self._swept = True
        return self._track(BwrapSession(spec, rootfs))


class _UidSlot:
    """An exclusive host uid for one session, held by an flock until released."""

    def __init__(self) -> None:
        lock_dir = sessions_root() / "uids"
        lock_dir.mkdir(mode=0o700, exist_ok=True)
        for slot in range(UID_SLOTS):
            fd = os.open(lock_dir / f"{slot}.lock", os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            self.fd, self.uid = fd, UID_BASE + slot
            return
        raise BackendUnavailable(f"all {UID_SLOTS} sandbox uids are in use")

    def release(self) -> None:
        os.close(self.fd)


class BwrapSession(Session):
    def __init__(self, spec: SandboxSpec, rootfs: Path | Layers):
        self.layers = rootfs if isinstance(rootfs, Layers) else None
        self.rootfs = rootfs if isinstance(rootfs, Path) else Path()
        self.slot = _UidSlot() if os.geteuid() == 0 else None
        owner = (self.slot.uid, self.slot.uid) if self.slot else None
        try:
            super().__init__(spec, owner)
            self.cgroup = (
                CgroupSet.create(f"dgm-{self.id}", spec.limits.memory_mb, spec.limits.pids) if self.slot else None
            )
            self.socket = Path(spec.socket) if spec.socket else None
            if self.slot:
                self._expose_read_only_sources()
            if self.layers is not None:  # mounted for each command (see _ENTER)
                self.rootfs = self.scratch.root / "image"
                self.rootfs.mkdir(mode=0o755)
        except BaseException:
            if hasattr(self, "scratch"):
                self.close()  # removes what was made so far and releases the uid
            elif self.slot:
                self.slot.release()
            raise
        self.cgroup_used = self.cgroup is not None

    def _expose_read_only_sources(self) -> None:
        """Bind read-only sources and the socket into the writable area on the host, so the
        unprivileged sandbox uid reaches them without traversing the host directories above
        them (a root-only temp directory, say) and without seeing anything else there."""
        for i, mount in enumerate(self.spec.mounts):
            if not mount.writable:
                self.host_dirs[mount.target] = self.scratch.bind_read_only(self.host_dirs[mount.target], f"ro{i}")
        if self.socket is not None:
            self.socket = self.scratch.bind_read_only(self.socket, "fm.sock")

    def _bwrap_args(self, workdir: str, env: dict[str, str]) -> list[str]:
        args = [
            "bwrap",
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--clearenv",
            "--uid",
            str(SANDBOX_UID),
            "--gid",
            str(SANDBOX_UID),
            "--hostname",
            "dgm-sandbox",
            "--cap-drop",
            "ALL",
            "--tmpfs",
            "/",
        ]
        for entry, target in self._top_entries():
            if target is not None:
                args += ["--symlink", target, f"/{entry}"]
            else:
                args += ["--ro-bind", str(self.rootfs / entry), f"/{entry}"]
        args += ["--proc", "/proc", "--dev", "/dev", "--bind", str(self.scratch.tmp), "/tmp"]
        for mount in self.spec.mounts:
            args += ["--bind" if mount.writable else "--ro-bind", str(self.host_dirs[mount.target]), mount.target]
        if self.socket is not None:
            args += ["--ro-bind", str(self.socket), SOCKET_PATH]
        args += ["--remount-ro", "/", "--chdir", workdir]
        for key, value in sorted(env.items()):
            args += ["--setenv", key, value]
        return [*args, "--"]

    def _top_entries(self) -> list[tuple[str, str | None]]:
        """The root's top-level folders and symlinks (a symlink's target, or None)."""
        if self.layers is not None:
            found = self.layers.top_entries()
        else:
            found = {}
            for entry in os.listdir(self.rootfs):
                path = self.rootfs / entry
                if path.is_symlink():
                    found[entry] = os.readlink(path)
                elif path.is_dir():
                    found[entry] = None
        return [(name, target) for name, target in sorted(found.items()) if name not in SKIP_TOP]

    def _root_mount(self) -> str:
        """The shell command that mounts the image's layers at self.rootfs (read-only)."""
        if self.layers is None:
            return ""
        target = str(self.rootfs)
        if self.layers.single is not None:  # a one-layer image: its folder is the whole root
            bind = ["mount", "--bind", str(self.layers.single), target]
            return f"{shlex.join(bind)} && {shlex.join(['mount', '-o', 'remount,bind,ro', target])}"
        return shlex.join(self.layers.mount_command(self.rootfs))

    def _exec(
        self, argv: list[str], timeout: float, stdin: bytes | None, env: dict[str, str], workdir: str
    ) -> ExecResult:
        limits = self.spec.limits
        env = {
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME": "/tmp",
            "LANG": "C.UTF-8",
            **({"DGM_FM_SOCKET": SOCKET_PATH} if self.spec.socket else {}),
            **env,
        }
        # nice 19 as well as the cgroup's low CPU weight: where no cgroup can be made, a niced
        # sandbox still yields to the model server in the same session or cgroup
        limited = runner.prlimit(limits, address_space=self.cgroup is None, nproc=self.slot is not None)
        prefix = ["nice", "-n", "19", *limited]
        host_env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
        if self.slot:
            prefix = [
                *prefix,
                "setpriv",
                f"--reuid={self.slot.uid}",
                f"--regid={self.slot.uid}",
                "--clear-groups",
                "--",
            ]
        if self.cgroup or self.layers is not None:
            host_env["DGM_CGROUP_PROCS"] = " ".join(str(p) for p in self.cgroup.procs_files()) if self.cgroup else ""
            host_env["DGM_ROOT_MOUNT"] = self._root_mount()
            prefix = ["/bin/sh", "-c", _ENTER, "sh", *prefix]
            if self.layers is not None:
                prefix = ["unshare", "--mount", "--propagation", "private", *prefix]
        # bwrap reads its arguments from a pipe, so the environment (the job's gateway token)
        # never shows in the host's process list.
        read_end, write_end = os.pipe()
        try:
            os.write(write_end, b"".join(a.encode() + b"\0" for a in self._bwrap_args(workdir, env)[1:]))
            os.close(write_end)
            tracker = self._tracker(timeout, self.cgroup)
            argv = [*prefix, "bwrap", "--args", str(read_end), *argv]
            return runner.run(argv, tracker, self._kill, stdin=stdin, env=host_env, pass_fds=(read_end,))
        finally:
            os.close(read_end)

    def _kill(self, proc: subprocess.Popen[bytes]) -> None:
        runner.killpg(proc)  # bwrap's pid namespace dies with it (--die-with-parent)
        if self.cgroup:
            self.cgroup.kill_all()

    def _teardown(self) -> None:
        try:
            cgroup = getattr(self, "cgroup", None)  # None, or not made yet when __init__ failed
            if cgroup is not None:
                cgroup.remove()
        finally:
            if self.slot:
                with contextlib.suppress(OSError):
                    self.slot.release()
