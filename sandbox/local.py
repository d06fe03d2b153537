"""local backend: a plain subprocess with rlimits. It isolates NOTHING.

For development on machines with neither docker nor bubblewrap, and only when asked for
by name. Mount targets cannot exist on the host, so every mount target that appears in
the command, its environment or its working directory is rewritten to the host directory
behind it."""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import shutil

from . import runner
from .base import Availability, Session, SessionTracker
from .spec import ExecResult, Mount, SandboxSpec

log = logging.getLogger(__name__)
WARNING = "the local sandbox backend isolates nothing: agent code runs with your user's full rights"


class LocalBackend(SessionTracker):
    name = "unsandboxed"
    isolating = False

    def availability(self) -> Availability:
        ok = shutil.which("prlimit") is not None
        return Availability(ok, f"works, but {WARNING}" if ok else "prlimit (util-linux) is not installed")

    def start(self, spec: SandboxSpec) -> LocalSession:
        log.warning(WARNING)
        return self._track(LocalSession(spec))


class LocalSession(Session):
    def __init__(self, spec: SandboxSpec):
        # Nothing can be made read-only here, so every mount is a private copy: the host
        # directories behind read-only mounts are at least never written.
        copies = tuple(Mount(m.target, m.source, writable=True) for m in spec.mounts)
        super().__init__(dataclasses.replace(spec, mounts=copies), owner=None)

    def _host(self, text: str) -> str:
        """Rewrite mount targets (as whole path prefixes) to their host directories, in one pass."""
        targets = {
            **{m.target.rstrip("/"): str(self.host_dirs[m.target]) for m in self.spec.mounts},
            "/tmp": str(self.scratch.tmp),
        }
        alternatives = "|".join(re.escape(t) for t in sorted(targets, key=len, reverse=True))
        pattern = re.compile(rf"(?<![\w.-])({alternatives})(?=/|$|[^\w.-])")
        return pattern.sub(lambda m: targets[m.group(1)], text)

    def _exec(
        self, argv: list[str], timeout: float, stdin: bytes | None, env: dict[str, str], workdir: str
    ) -> ExecResult:
        limits = self.spec.limits
        prefix = runner.prlimit(limits)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.scratch.tmp),
            "LANG": "C.UTF-8",
            **{k: self._host(v) for k, v in env.items()},
        }
        argv = prefix + [self._host(a) for a in argv]
        return runner.run(argv, self._tracker(timeout), runner.killpg, stdin=stdin, env=env, cwd=self._host(workdir))

    def _teardown(self) -> None:
        """Each exec's process group is killed when it ends; nothing else to stop."""
