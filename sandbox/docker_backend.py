"""docker backend: one container per session, one `docker exec` per command.

No network, read-only root, all capabilities dropped, no-new-privileges, a non-root user,
memory/pids/CPU limits; /tmp and the writable mounts come from the session's capped area.
PID 1 is a small reaper, so `kill -9 -1` inside cannot stop the container and orphans
do not pile up as zombies. Containers carry labels naming their owner process, so those
left by a crashed run are removed when the next one starts."""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import socket
import time
from typing import Any

from . import cgroups, foreign, image
from .base import SANDBOX_UID, Availability, Session, SessionTracker, proc_stat, smoke_test, sweep_stale_sessions
from .cgroups import CgroupSet
from .errors import BackendUnavailable, SandboxError
from .runner import POLL_S, LimitTracker, OutputCollector
from .spec import SOCKET_PATH, ExecResult, SandboxSpec

log = logging.getLogger(__name__)


def remove_container(container: Any) -> bool:
    """Remove a sandbox container, whatever state it is in. One already gone is fine; one
    the daemon will not remove is logged (it stays, and the next sweep tries again) and
    anything else is raised."""
    import requests
    from docker.errors import APIError, NotFound

    try:
        container.remove(force=True)
    except NotFound:
        return False
    except (APIError, requests.exceptions.RequestException) as exc:
        log.warning("could not remove sandbox container %s: %s", container.short_id, exc)
        return False
    return True


LABEL = "org.dgm.sandbox.owner"
REAPER = """
import os, signal
wanted = {signal.SIGCHLD, signal.SIGTERM, signal.SIGINT}
signal.pthread_sigmask(signal.SIG_BLOCK, wanted)
while signal.sigwait(wanted) == signal.SIGCHLD:
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass
"""
KILL_ALL = ["/usr/bin/python3", "-c", "import os, signal; os.kill(-1, signal.SIGKILL)"]


def owner_tag(pid: int | None = None) -> str:
    """host:pid:start-time of a process, so a reused pid is not mistaken for the owner."""
    pid = pid or os.getpid()
    start = proc_stat(pid)[19]
    return f"{socket.gethostname()}:{pid}:{start}"


def owner_alive(tag: str) -> bool:
    host, pid, _ = tag.split(":")
    if host != socket.gethostname():
        return True  # another machine's container: not ours to judge
    try:
        return owner_tag(int(pid)) == tag
    except (OSError, IndexError):
        return False


class DockerBackend(SessionTracker):
    name = "docker"
    isolating = True

    def __init__(self, image_tag: str | None = None):
        super().__init__()
        self.image_tag = image_tag
        self._client: Any = None  # a docker.DockerClient (docker-py ships no types)
        self._swept = False
        self._parent: str | None = None  # "" once known to be unavailable

    def client(self) -> Any:
        if self._client is None:
            import docker
            import requests

            try:
                self._client = docker.from_env(timeout=120)
                self._client.ping()
            except (docker.errors.DockerException, requests.exceptions.RequestException, OSError) as exc:
                self._client = None
                raise BackendUnavailable(
                    f"no docker daemon answers ({exc.__class__.__name__}): install docker.io and start "
                    "dockerd (as root: `dockerd &`), then `dgm sandbox build --offline`"
                ) from exc
        return self._client

    def _image(self, spec: SandboxSpec) -> str:
        return spec.image or self.image_tag or image.image_tag()

    def availability(self) -> Availability:
        import docker.errors

        try:
            client = self.client()
            tag = self.image_tag or image.image_tag()
            client.images.get(tag)
        except BackendUnavailable as exc:
            return Availability(False, str(exc))
        except docker.errors.ImageNotFound:
            return Availability(False, f"image {tag} is missing: run `dgm sandbox build --offline` (as root)")
        failure, _ = smoke_test(self)
        if failure:
            return Availability(False, failure)
        return Availability(True, f"docker {client.version().get('Version', '?')} with image {tag}")

    def sweep_stale(self) -> int:
        """Remove sandbox containers whose owner process is gone. Returns how many. A
        container removed between the daemon's list and its inspection (another run closing
        its sandbox) is passed over."""
        removed = 0
        for container in self.client().containers.list(all=True, filters={"label": LABEL}, ignore_removed=True):
            if not owner_alive(container.labels.get(LABEL, "?:0:0")):
                log.info("removing stale sandbox container %s", container.short_id)
                if remove_container(container):
                    removed += 1
        return removed

    def start(self, spec: SandboxSpec) -> DockerSession:
        client = self.client()
        if not self._swept:
            self.sweep_stale()
            sweep_stale_sessions()
            self._swept = True
        return self._track(DockerSession(spec, client, self._image(spec), self._cgroup_parent(client)))

    def _cgroup_parent(self, client: Any) -> str | None:
        """`/dgm-sandboxes` (the low CPU weight every sandbox runs at) where the daemon makes
        cgroup v1 groups itself (the cgroupfs driver); None elsewhere (systemd's driver wants
        a slice, and v2 needs the controller delegated), where containers keep docker's weight."""
        if self._parent is None:
            info = client.info()
            local = info.get("CgroupDriver") == "cgroupfs" and str(info.get("CgroupVersion")) == "1"
            self._parent = f"/{cgroups.LOW_CPU_GROUP}" if local and cgroups.low_cpu_parent() else ""
        return self._parent or None


class DockerSession(Session):
    def __init__(self, spec: SandboxSpec, client: Any, image_tag: str, cgroup_parent: str | None = None):
        import docker.errors
        from docker.types import Mount as DockerMount
        from docker.types import Ulimit

        owner = (SANDBOX_UID, SANDBOX_UID) if os.geteuid() == 0 else None
        super().__init__(spec, owner)
        limits = spec.limits
        mounts = [DockerMount("/tmp", str(self.scratch.tmp), type="bind")]
        for m in spec.mounts:
            mounts.append(DockerMount(m.target, str(self.host_dirs[m.target]), type="bind", read_only=not m.writable))
        env = {"HOME": "/tmp", "LANG": "C.UTF-8", **spec.env}
        if spec.socket is not None:
            mounts.append(DockerMount(SOCKET_PATH, str(spec.socket), type="bind", read_only=True))
            env["DGM_FM_SOCKET"] = SOCKET_PATH
        try:
            self.container = client.containers.run(
                image_tag,
                ["/usr/bin/python3", "-c", REAPER],
                detach=True,
                user=f"{SANDBOX_UID}:{SANDBOX_UID}",
                network_mode="none",
                read_only=True,
                cap_drop=["ALL"],
                security_opt=["no-new-privileges"],
                ipc_mode="private",
                mem_limit=f"{limits.memory_mb}m",
                memswap_limit=f"{limits.memory_mb}m",
                pids_limit=limits.pids,
                cgroup_parent=cgroup_parent,
                hostname="dgm-sandbox",
                working_dir=spec.workdir,
                ulimits=[
                    Ulimit(name="cpu", soft=int(limits.cpu_s), hard=int(limits.cpu_s) + 1),
                    Ulimit(name="fsize", soft=limits.disk_mb * 2**20, hard=limits.disk_mb * 2**20),
                    Ulimit(name="core", soft=0, hard=0),
                ],
                mounts=mounts,
                environment=env,
                labels={LABEL: owner_tag()},
            )
        except docker.errors.ImageNotFound as exc:
            self.scratch.remove()
            if spec.image:
                raise foreign.ImageMissing(f"image {image_tag} is not present: `dgm bench pull` fetches it") from exc
            raise BackendUnavailable(f"image {image_tag} is missing: run `dgm sandbox build --offline`") from exc
        except BaseException:
            self.scratch.remove()
            raise
        self.api = client.api
        self.container.reload()
        self.init_pid = self.container.attrs["State"]["Pid"]
        try:
            self.cgroup: CgroupSet | None = CgroupSet.of_pid(self.init_pid)
        except OSError:
            self.cgroup = None  # daemon on another host or namespace: counters unavailable

    def _exec(
        self, argv: list[str], timeout: float, stdin: bytes | None, env: dict[str, str], workdir: str
    ) -> ExecResult:
        tracker = self._tracker(timeout, self.cgroup)
        exec_id = self.api.exec_create(
            self.container.id,
            argv,
            stdout=True,
            stderr=True,
            stdin=stdin is not None,
            environment=env,
            workdir=workdir,
            user=f"{SANDBOX_UID}:{SANDBOX_UID}",
        )["Id"]
        raw = self.api.exec_start(exec_id, socket=True)
        sock: socket.socket = getattr(raw, "_sock", raw)
        out = OutputCollector(self.spec.limits.output_bytes)
        try:
            if stdin is not None:
                with contextlib.suppress(OSError):
                    sock.sendall(stdin)
                    sock.shutdown(socket.SHUT_WR)
            self._pump(sock, out, tracker)
        finally:
            sock.close()
            with contextlib.suppress(OSError):  # the stream is done with either way
                raw.close()
        if tracker.hits:
            self._kill_all()
        code = self._exit_code(exec_id)
        if not tracker.hits:
            self._kill_all(only_if_left=True)  # nothing an exec starts outlives it
        return tracker.result(code, out)

    @staticmethod
    def _pump(sock: socket.socket, out: OutputCollector, tracker: LimitTracker) -> None:
        """Read docker's multiplexed frames (8-byte header: stream, 0, 0, 0, size) until EOF."""
        sel = selectors.DefaultSelector()
        sel.register(sock, selectors.EVENT_READ)
        buf = bytearray()
        try:
            while not tracker.over(out):
                if not sel.select(timeout=POLL_S):
                    continue
                data = sock.recv(1 << 16)
                if not data:
                    return
                buf += data
                while len(buf) >= 8:
                    size = int.from_bytes(buf[4:8], "big")
                    if len(buf) < 8 + size:
                        break
                    out.add("stderr" if buf[0] == 2 else "stdout", bytes(buf[8 : 8 + size]))
                    del buf[: 8 + size]
        finally:
            sel.close()

    def _exit_code(self, exec_id: str) -> int:
        for _ in range(200):
            info = self.api.exec_inspect(exec_id)
            if not info.get("Running"):
                return info.get("ExitCode") if info.get("ExitCode") is not None else -1
            time.sleep(0.025)
        raise SandboxError(f"exec {exec_id[:12]} still running after its processes were killed")

    def _kill_all(self, only_if_left: bool = False) -> None:
        """Kill every process but the reaper: from the host through the cgroup when we can
        see it, else from inside (kill(-1) spares PID 1)."""
        if self.cgroup:
            if only_if_left and not [p for p in self.cgroup.pids() if p != self.init_pid]:
                return
            self.cgroup.kill_all(spare=frozenset({self.init_pid}))
            return
        exec_id = self.api.exec_create(self.container.id, KILL_ALL, user=f"{SANDBOX_UID}:{SANDBOX_UID}")["Id"]
        self.api.exec_start(exec_id)

    def _teardown(self) -> None:
        remove_container(self.container)
