"""A session's writable area: one directory holding every writable mount and /tmp.

As root it is a tmpfs of the session's disk size, so the cap is exact and nothing
written inside reaches the host disk. Otherwise it is a plain directory watched by
`over_cap()`, with a per-file size rlimit as the hard stop."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import subprocess
from pathlib import Path

from . import fs
from .errors import SandboxError
from .spec import Mount

log = logging.getLogger(__name__)


class Scratch:
    def __init__(self, root: Path, disk_mb: int, owner: tuple[int, int] | None):
        self.root = root
        self.disk_mb = disk_mb
        self.owner = owner  # host (uid, gid) that sandboxed code writes as; None: ourselves
        self.mounted = False
        root.mkdir(mode=0o711, parents=True)
        if os.geteuid() == 0:
            proc = subprocess.run(
                ["mount", "-t", "tmpfs", "-o", f"size={disk_mb}m,mode=0711,nosuid,nodev", "dgm-sandbox", str(root)],
                capture_output=True,
                text=True,
            )
            self.mounted = proc.returncode == 0
            if not self.mounted:
                log.warning(
                    "could not mount a tmpfs for the sandbox (%s); disk cap is watched, not enforced",
                    proc.stderr.strip(),
                )
        self.tmp = self._area("tmp")
        os.chmod(self.tmp, 0o1777)

    @classmethod
    def attach(cls, root: Path) -> Scratch:
        """An existing area (left by a crashed run), to remove it."""
        self = cls.__new__(cls)
        self.root, self.disk_mb, self.owner = root, 0, None
        self.mounted = os.path.ismount(root)
        self.tmp = root / "tmp"
        return self

    def _area(self, name: str) -> Path:
        path = self.root / name
        path.mkdir(mode=0o755)
        if self.owner:
            os.chown(path, *self.owner)
        return path

    def volume(self, mount: Mount, index: int) -> Path:
        """Make the host directory backing writable mount `mount`, seeded from its source."""
        path = self._area(f"vol{index}")
        if mount.source is not None:
            with fs.open_dir(path, []) as fd:
                for entry in sorted(os.listdir(mount.source)):
                    fs.copy_in(Path(mount.source) / entry, fd, entry, self.owner)
        return path

    def bind_read_only(self, source: Path, name: str) -> Path:
        """Bind-mount a host directory or file read-only at `name` in this area (root only)."""
        target = self.root / name
        if source.is_dir():
            target.mkdir(mode=0o755)
        else:
            target.touch(mode=0o644)
        for args in (["--bind", str(source), str(target)], ["-o", "remount,bind,ro", str(target)]):
            proc = subprocess.run(["mount", *args], capture_output=True, text=True)
            if proc.returncode != 0:
                raise SandboxError(f"cannot bind {source} read-only: {proc.stderr.strip()}")
        return target

    def _mounts_below(self) -> list[str]:
        root = str(self.root)
        points = []
        with open("/proc/self/mountinfo") as fh:
            for line in fh:
                point = line.split()[4].encode().decode("unicode_escape")
                if point == root or point.startswith(root + "/"):
                    points.append(point)
        return sorted(points, key=len, reverse=True)

    def used_bytes(self) -> int:
        if self.mounted:
            st = os.statvfs(self.root)
            return (st.f_blocks - st.f_bfree) * st.f_frsize
        total = 0
        for dirpath, _dirs, files in os.walk(self.root):
            for name in files:
                with contextlib.suppress(OSError):
                    total += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
        return total

    def over_cap(self) -> bool:
        """True when the writable area is (within 1%) full."""
        return self.used_bytes() >= self.disk_mb * 2**20 * 0.99

    def remove(self) -> None:
        """Unmount everything below the area, then delete it. If anything stays mounted the
        directory is left in place: deleting through a bind mount would delete host files."""
        for point in self._mounts_below():
            proc = subprocess.run(["umount", point], capture_output=True, text=True)
            if proc.returncode != 0:
                subprocess.run(["umount", "-l", point], capture_output=True)
        left = self._mounts_below()
        if left:
            log.error("sandbox area %s still has mounts %s; not deleting it", self.root, left)
            return
        shutil.rmtree(self.root, ignore_errors=True)
