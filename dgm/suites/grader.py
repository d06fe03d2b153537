"""Grading: the agent's patch, minus any hunk touching a test or harness file, applied to a
clean copy of the repository in a fresh sandbox; then the hidden tests are added and run by
the task's harness (under configuration the grader owns), and the per-test results decide.
A patch that does not apply, a timeout or a crash is a failure with its reason; a run whose
results show signs of forging is `tampered`, never resolved."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path

from sandbox import Backend, Limits, Mount, SandboxSpec

from .. import tempdirs
from . import official
from .harness import Reading, Run, harness_for
from .patches import strip_tests
from .task import BenchmarkError, Task

PASSING = {"PASSED", "XFAIL"}
LOG_LIMIT = 20_000
APPLY = r"""
cd /repo
if [ -s /grade/patch.diff ]; then
  git apply --whitespace=nowarn /grade/patch.diff 2>/tmp/apply.log \
  || patch --batch --fuzz=5 -p1 -i /grade/patch.diff >>/tmp/apply.log 2>&1 \
  || { cat /tmp/apply.log; exit 97; }
fi
cp -a /grade/hidden/. /repo/
if [ -s /grade/hidden.diff ]; then git apply --whitespace=nowarn /grade/hidden.diff || exit 98; fi
if [ -s /grade/requirements.txt ]; then
  python3 -m pip install -q --no-index --find-links /grade/wheels --target /tmp/deps \
    -r /grade/requirements.txt || exit 99
fi
"""


@dataclass(frozen=True)
class Verdict:
    task_id: str
    resolved: bool
    # None when resolved; patch_failed | timeout | no_results | tests_failed | setup_failed | tampered
    # | gamed | agent_failed (set by evaluate.py: the agent crashed, never started or hit a limit)
    reason: str | None
    fail_to_pass: dict[str, str]
    pass_to_pass: dict[str, str]
    tests: dict[str, str]
    stripped: tuple[str, ...]  # test files the patch touched; those hunks were removed
    duration_s: float
    log: str
    tamper: tuple[str, ...] = ()  # why the results cannot be believed (the reason is then `tampered`)
    gamed: tuple[str, ...] = ()  # twins an honest fix must fail that passed (the reason is then `gamed`)
    flags: tuple[str, ...] = ()  # what the run saw that an honest fix rarely does; the verdict stands
    mutable: tuple[int, int] = (0, 0)  # tests that must pass with a literal expectation (twinned), of all

    @property
    def tests_passed(self) -> int:
        return sum(s in PASSING for s in self.tests.values())

    @property
    def tests_failed(self) -> int:
        return len(self.tests) - self.tests_passed


class Grader:
    """Grades patches for tasks through a sandbox backend; caches base exports and wheels."""

    def __init__(self, backend: Backend, cache_dir: Path | None = None):
        self.backend = backend
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        tempdirs.sweep(cache_dir)  # grading folders (and without `cache_dir`, caches) of dead processes
        if cache_dir is None:  # a cache of its own, removed with the grader or at exit
            self.cache = tempdirs.make(tempdirs.GRADE)
            weakref.finalize(self, tempdirs.remove, self.cache)
        else:
            self.cache = Path(cache_dir)
        self.cache.mkdir(parents=True, exist_ok=True)
        self.cache.chmod(0o755)

    def _lock_for(self, key: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(key, threading.Lock())

    def base(self, task: Task) -> Path:
        """The task's base repository, exported once (no VCS history, readable by sandboxes)."""
        key = hashlib.sha256(f"{task.suite}\0{task.id}\0{task.repo}".encode()).hexdigest()[:16]
        dest = self.cache / "bases" / key
        with self._lock_for(key):  # two threads grading one task export its base once
            if not dest.exists():
                partial = dest.with_name(key + ".partial")
                shutil.rmtree(partial, ignore_errors=True)
                partial.parent.mkdir(parents=True, exist_ok=True)
                partial.parent.chmod(0o755)
                task.repo.export(partial)
                partial.rename(dest)
        return dest

    def wheels(self, task: Task) -> Path:
        key = hashlib.sha256("\n".join(sorted(task.requirements)).encode()).hexdigest()[:16]
        dest = self.cache / "wheels" / key
        if not dest.exists():
            partial = dest.with_name(key + ".partial")
            proc = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--only-binary=:all:",
                    "--dest",
                    str(partial),
                    *task.requirements,
                ],
                capture_output=True,
                text=True,
            )
            if proc.returncode != 0:
                raise BenchmarkError(f"cannot download {task.requirements}: {proc.stderr.strip()[-500:]}")
            partial.rename(dest)
        return dest

    def _inputs(self, task: Task, patch: str, run: Run, folder: Path) -> Path:
        grade = folder / "grade"
        (grade / "hidden").mkdir(parents=True)
        for name, content in run.files.items():
            (grade / name).parent.mkdir(parents=True, exist_ok=True)
            (grade / name).write_bytes(content)
        (grade / "patch.diff").write_text(patch)
        (grade / "hidden.diff").write_text(task.hidden_patch)
        for rel, content in (task.hidden_files if run.hidden is None else run.hidden).items():
            (grade / "hidden" / rel).parent.mkdir(parents=True, exist_ok=True)
            (grade / "hidden" / rel).write_bytes(content)
        if task.requirements:
            (grade / "requirements.txt").write_text("\n".join(task.requirements) + "\n")
            shutil.copytree(self.wheels(task), grade / "wheels")
        for path in [folder, *folder.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        return grade

    def grade(self, task: Task, patch: str) -> Verdict:
        start = time.monotonic()
        kept, stripped = strip_tests(patch, task.hidden_paths())
        if task.environment is not None:
            return self._grade_in_environment(task, kept, stripped, start)
        harness = harness_for(task)
        run = harness.prepare(task, self.base(task))
        with tempfile.TemporaryDirectory(prefix=tempdirs.owned_prefix(tempdirs.GRADE), dir=self.cache) as tmp:
            grade = self._inputs(task, kept, run, Path(tmp))
            spec = SandboxSpec(
                mounts=(Mount("/repo", self.base(task), writable=True), Mount("/grade", grade)),
                workdir="/repo",
                env={"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": "/tmp/deps"},
                # pids: a test may start many threads (C++ bank-account starts 1000 at once)
                limits=Limits(wall_s=task.timeout + 60, cpu_s=task.timeout * 4, pids=2048, output_bytes=4_000_000),
                image=task.image,
            )
            with self.backend.start(spec) as session:
                applied = session.exec(["sh", "-c", APPLY + run.setup], timeout=120)
                if applied.exit_code != 0:
                    reason = {97: "patch_failed"}.get(applied.exit_code, "setup_failed")
                    return self._verdict(task, reason, {}, stripped, start, applied.stdout + applied.stderr)
                result = session.exec(["sh", "-c", run.command], timeout=task.timeout, stdin=run.stdin)
        output = result.stdout + result.stderr
        if result.timed_out:
            return self._verdict(task, "timeout", {}, stripped, start, harness.read(task, run, output, 0).log)
        reading = harness.read(task, run, output, result.exit_code)
        reason = "tampered" if reading.tamper else "gamed" if reading.gamed else None
        return self._verdict(task, reason, reading.tests, stripped, start, reading.log, reading)

    def _grade_in_environment(self, task: Task, patch: str, stripped: list[str], start: float) -> Verdict:
        """The official route: the task's own image and eval script, judged as the official
        report judges (a skipped PASS_TO_PASS test is kept, not failed)."""
        with tempfile.TemporaryDirectory(prefix=tempdirs.owned_prefix(tempdirs.GRADE), dir=self.cache) as tmp:
            out = official.grade(self.backend, task, self.base(task), patch, Path(tmp))
        f2p = {t: out.tests.get(t, "MISSING") for t in task.fail_to_pass}
        p2p = {t: out.tests.get(t, "MISSING") for t in task.pass_to_pass}
        elapsed = time.monotonic() - start
        return Verdict(
            task.id,
            out.reason is None,
            out.reason,
            f2p,
            p2p,
            out.tests,
            tuple(stripped),
            elapsed,
            out.log[-LOG_LIMIT:],
            out.tamper,
            out.gamed,
            out.flags,
            out.mutable,
        )

    def refuse(self, task: Task, reason: str) -> Verdict:
        """A failure decided before any test ran (e.g. the agent left an unsafe tree)."""
        return self._verdict(task, reason, {}, [], time.monotonic(), "")

    def _verdict(
        self,
        task: Task,
        reason: str | None,
        tests: dict[str, str],
        stripped: list[str],
        start: float,
        log: str,
        reading: Reading | None = None,
    ) -> Verdict:
        f2p = {t: tests.get(t, "MISSING") for t in task.fail_to_pass}
        p2p = {t: tests.get(t, "MISSING") for t in task.pass_to_pass}
        if reason is None:
            if not tests:
                reason = "no_results"
            elif task.all_must_pass:
                # every test, none skipped: a suite judged whole turns its skipped tests on, so a
                # skip is the code under test stepping aside (a test aborted from inside it)
                reason = None if all(s in PASSING for s in tests.values()) else "tests_failed"
            else:
                ok = all(s in PASSING for s in (*f2p.values(), *p2p.values()))
                reason = None if ok else "tests_failed"
        return Verdict(
            task.id,
            reason is None,
            reason,
            f2p,
            p2p,
            tests,
            tuple(stripped),
            time.monotonic() - start,
            log[-LOG_LIMIT:],
            reading.tamper if reading else (),
            reading.gamed if reading else (),
            reading.flags if reading else (),
            reading.mutable if reading else (0, 0),
        )
