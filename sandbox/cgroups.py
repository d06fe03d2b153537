"""Per-session control groups: hard limits on memory and processes, a low CPU weight, and
the counters that tell which limit a command hit (OOM kills, refused forks, CPU time).

The CPU weight: every sandbox's CPU group sits under one parent, `dgm-sandboxes`, at the top
of the cpu hierarchy at an eighth of a process's weight (v1 `cpu.shares` 128, v2 `cpu.weight`
12, against 1024 and 100), so a test suite in a sandbox takes a ninth of a core the model
decodes on, not half (llama.cpp's threads meet at a spinning barrier every step: one of
them descheduled stalls them all). Measured (BENCHMARKS.md): 2 threads beside pytest in a
sandbox decode at 29.2 tokens/s at shares 2, 26.8 at 128, 15.3 at 256, 5.4 at 512 (29.1
quiet); but at 2 a sandbox starves behind any busy process (1 s test runs passed their 60 s
timeout beside the model and a busy loop), so 128: decoding keeps 0.92x, and tests run.
Docker's containers are put under the same parent (`cgroup_parent`).

cgroup v1 (one hierarchy per controller) and v2 (unified) are both handled. Creating a
group needs write access to the cgroup tree (root, or a delegated subtree); where that is
missing `CgroupSet.create` returns None and the backends fall back to rlimits."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

CGROUP_ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("memory", "pids", "cpuacct", "freezer")
LOW_CPU_GROUP = "dgm-sandboxes"  # the parent of every sandbox's CPU group
LOW_SHARES = 128  # cgroup v1 cpu.shares: an eighth of a process at nice 0 (1024)
LOW_WEIGHT = 12  # cgroup v2 cpu.weight: the same eighth of the default (100)


def _hierarchies() -> dict[str, str]:
    """Controller -> the id of its v1 hierarchy (co-mounted controllers share one)."""
    out: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        number, controllers, _ = line.split(":", 2)
        out.update(dict.fromkeys(filter(None, controllers.split(",")), number))
    return out


def low_cpu_parent() -> Path | None:
    """The v1 `dgm-sandboxes` group of the cpu hierarchy, made if missing and set to the
    low weight; None where it cannot be (no cpu hierarchy, no write access, a v2 host:
    there the weight is set on each session's own group)."""
    parent = CGROUP_ROOT / "cpu" / LOW_CPU_GROUP
    if not (CGROUP_ROOT / "cpu" / "cpu.shares").exists():
        return None
    try:
        parent.mkdir(exist_ok=True)
        (parent / "cpu.shares").write_text(str(LOW_SHARES))
    except OSError as exc:
        log.debug("no low-weight cpu group for sandboxes (%s)", exc)
        return None
    return parent


def _low_cpuacct(make: bool) -> Path | None:
    """v1: the `dgm-sandboxes` group of the cpuacct hierarchy, which sums every sandbox's CPU
    time (the model's thread count leaves it out of the work it must give way to)."""
    group = CGROUP_ROOT / "cpuacct" / LOW_CPU_GROUP
    if make:
        with contextlib.suppress(OSError):
            group.mkdir(exist_ok=True)
    return group if group.is_dir() else None


def sandboxes_cpu_seconds() -> float | None:
    """CPU seconds used so far by all sandboxes at the low weight (this run's and others');
    None where they cannot be told apart (v2, no cpuacct hierarchy)."""
    group = _low_cpuacct(make=False)
    try:
        return int((group / "cpuacct.usage").read_text()) / 1e9 if group else None
    except (OSError, ValueError):
        return None


def _own_paths() -> dict[str, Path]:
    """This process's cgroup directory per v1 controller, or {'': dir} on a v2 host."""
    out: dict[str, Path] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, rel = line.split(":", 2)
        for controller in controllers.split(","):
            if controller in V1_CONTROLLERS:
                out[controller] = CGROUP_ROOT / controller / rel.lstrip("/")
    if not out and (CGROUP_ROOT / "cgroup.controllers").exists():
        rel = next(
            line.split(":", 2)[2]
            for line in Path("/proc/self/cgroup").read_text().splitlines()
            if line.startswith("0::")
        )
        out[""] = CGROUP_ROOT / rel.lstrip("/")
    return out


def _session_parents(make: bool) -> dict[str, Path]:
    """Where a session's groups go: under this process's own groups, but for the CPU under
    `dgm-sandboxes` (v1; cpuacct with it where the two share a hierarchy)."""
    parents = _own_paths()
    if "" in parents or not parents:
        return parents
    cpu = low_cpu_parent() if make else CGROUP_ROOT / "cpu" / LOW_CPU_GROUP
    if cpu is not None:
        parents["cpu"] = cpu
        hierarchies = _hierarchies()
        if hierarchies.get("cpuacct") is not None and hierarchies.get("cpuacct") == hierarchies.get("cpu"):
            parents["cpuacct"] = cpu
        elif "cpuacct" in parents and (acct := _low_cpuacct(make)) is not None:
            parents["cpuacct"] = acct
    return parents


def _read_key(path: Path, key: str) -> int:
    with contextlib.suppress(OSError):
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    return 0


@dataclass
class CgroupSet:
    """The directories of one session group: per controller on v1, one directory on v2."""

    dirs: dict[str, Path]
    owned: bool  # created by us (and so removed by us)

    @property
    def v2(self) -> bool:
        return "" in self.dirs

    @classmethod
    def create(cls, name: str, memory_mb: int, pids: int) -> CgroupSet | None:
        try:
            parents = _session_parents(make=True)
        except OSError:
            return None
        if not parents or ("" not in parents and not {"memory", "pids"} <= parents.keys()):
            return None
        group = cls({c: p / name for c, p in parents.items()}, owned=True)
        try:
            for d in group.unique_dirs():
                d.mkdir()
            group._set_limits(memory_mb, pids)
        except OSError as exc:
            log.debug("cgroups unavailable (%s); falling back to rlimits", exc)
            group.remove()
            return None
        return group

    @classmethod
    def existing(cls, name: str) -> CgroupSet | None:
        """The group `name` made by this user earlier (e.g. by a crashed run), if any."""
        try:
            dirs = {c: p / name for c, p in _session_parents(make=False).items()}
        except OSError:
            return None
        dirs = {c: d for c, d in dirs.items() if d.is_dir()}
        return cls(dirs, owned=True) if dirs else None

    @classmethod
    def of_pid(cls, pid: int) -> CgroupSet:
        """The groups a running process is in (to read a container's counters)."""
        dirs: dict[str, Path] = {}
        for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
            _, controllers, rel = line.split(":", 2)
            for controller in controllers.split(","):
                if controller in V1_CONTROLLERS:
                    dirs[controller] = CGROUP_ROOT / controller / rel.lstrip("/")
            if controllers == "" and not dirs and (CGROUP_ROOT / "cgroup.controllers").exists():
                dirs[""] = CGROUP_ROOT / rel.lstrip("/")
        return cls({c: d for c, d in dirs.items() if d.is_dir()}, owned=False)

    def _set_limits(self, memory_mb: int, pids: int) -> None:
        mem = str(memory_mb * 2**20)
        if self.v2:
            d = self.dirs[""]
            (d / "memory.max").write_text(mem)
            with contextlib.suppress(OSError):
                (d / "memory.swap.max").write_text("0")
            (d / "pids.max").write_text(str(pids))
            with contextlib.suppress(OSError):  # absent where the parent does not enable the cpu controller
                (d / "cpu.weight").write_text(str(LOW_WEIGHT))
            return
        (self.dirs["memory"] / "memory.limit_in_bytes").write_text(mem)
        with contextlib.suppress(OSError):  # absent without swap accounting
            (self.dirs["memory"] / "memory.memsw.limit_in_bytes").write_text(mem)
        (self.dirs["pids"] / "pids.max").write_text(str(pids))

    def unique_dirs(self) -> list[Path]:
        return list(dict.fromkeys(self.dirs.values()))

    def procs_files(self) -> list[Path]:
        return [d / "cgroup.procs" for d in self.unique_dirs()]

    # --- counters ------------------------------------------------------------------
    def oom_kills(self) -> int:
        if self.v2:
            return _read_key(self.dirs[""] / "memory.events", "oom_kill")
        return _read_key(self.dirs.get("memory", Path("/nonexistent")) / "memory.oom_control", "oom_kill")

    def fork_refusals(self) -> int:
        d = self.dirs.get("" if self.v2 else "pids")
        return _read_key(d / "pids.events", "max") if d else 0

    def cpu_seconds(self) -> float:
        with contextlib.suppress(OSError, KeyError, ValueError):
            if self.v2:
                return _read_key(self.dirs[""] / "cpu.stat", "usage_usec") / 1e6
            return int((self.dirs["cpuacct"] / "cpuacct.usage").read_text()) / 1e9
        return 0.0

    def pids(self) -> list[int]:
        d = self.dirs.get("" if self.v2 else "pids") or next(iter(self.dirs.values()), None)
        if d is None:
            return []
        with contextlib.suppress(OSError):
            return [int(p) for p in (d / "cgroup.procs").read_text().split()]
        return []

    # --- teardown --------------------------------------------------------------------
    def kill_all(self, spare: frozenset[int] = frozenset(), deadline_s: float = 5.0) -> None:
        """SIGKILL every process in the group but `spare`, until none is left."""
        freezer = self.dirs.get("freezer")
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            victims = [p for p in self.pids() if p not in spare]
            if not victims:
                return
            if freezer is not None and not spare:
                with contextlib.suppress(OSError):
                    (freezer / "freezer.state").write_text("FROZEN")
            for pid in victims:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            if freezer is not None and not spare:
                with contextlib.suppress(OSError):
                    (freezer / "freezer.state").write_text("THAWED")
            time.sleep(0.01)
        log.warning("processes still alive in %s after %.0fs", self.dirs, deadline_s)

    def remove(self) -> None:
        if not self.owned:
            return
        self.kill_all()
        for d in self.unique_dirs():
            for _ in range(50):  # rmdir fails while the last killed tasks are being reaped
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
