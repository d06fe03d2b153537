"""Grading in a task's own environment, as SWE-bench's harness does it: the patch applied to
the image's repository with the official harness's fallbacks, the row's eval script run
unchanged (stdout and stderr together, as the harness logs them), its output read by the
official parser and judged by the official report.

What still holds here of dgm's trust boundary: a fresh sandbox with no network, no key and
the task's limits; the grader has already stripped the patch's hunks that touch tests or
the harness (conftest.py, pytest configuration, sitecustomize, .pth files: see
patches.py). The official parsers read what the tests print, so the parser reads the log
without pytest's captured-output sections and without what follows the runner's summary
(swebench/sanitize.py), and a run the official report would resolve is run again under
dgm's judge when its eval script runs pytest (official_judge.py): a disagreement is
`tampered`. Runners other than pytest (Django's, sympy's) get only the first of these."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sandbox import Backend, Limits, Mount, SandboxSpec

from .official_judge import second_opinion
from .patches import measure
from .swebench.report import grade as judge
from .swebench.sanitize import for_parser
from .task import Task

# The official harness's ways to apply a patch, tried in this order until one succeeds.
APPLY = r"""
cd "$1" || exit 96
for how in "git apply --verbose" "git apply --verbose --reject" "patch --batch --fuzz=5 -p1 -i"; do
  if $how /grade/patch.diff >>/tmp/apply.log 2>&1; then exit 0; fi
done
cat /tmp/apply.log
exit 97
"""


@dataclass(frozen=True)
class Outcome:
    reason: str | None  # None: resolved
    tests: dict[str, str]
    log: str
    tamper: tuple[str, ...] = ()
    gamed: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    mutable: tuple[int, int] = (0, 0)


def grade(backend: Backend, task: Task, base: Path, patch: str, folder: Path) -> Outcome:
    """Apply `patch` to a copy of `base` (the image's repository) and run the eval script."""
    env = task.environment
    assert env is not None, "only tasks with their own environment are graded here"
    grade_dir = folder / "grade"
    grade_dir.mkdir(parents=True)
    (grade_dir / "patch.diff").write_text(patch)
    (grade_dir / "eval.sh").write_text(env.eval_script)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    spec = SandboxSpec(
        mounts=(Mount(env.workdir, base, writable=True), Mount("/grade", grade_dir)),
        workdir=env.workdir,
        limits=Limits(
            wall_s=task.timeout + 60,
            cpu_s=task.timeout * 4,
            memory_mb=4096,
            pids=1024,
            disk_mb=measure(base)[1] // 2**20 + 2048,
            output_bytes=8_000_000,
        ),
        image=env.resolved_image(),
    )
    with backend.start(spec) as session:
        if patch.strip():
            applied = session.exec(["/bin/bash", "-c", APPLY, "apply", env.workdir], timeout=120)
            if applied.exit_code != 0:
                return Outcome("patch_failed", {}, applied.stdout + applied.stderr)
        result = session.exec(["/bin/bash", "-c", "exec /bin/bash /grade/eval.sh 2>&1"], timeout=task.timeout)
    log = result.stdout + result.stderr
    if result.timed_out:
        return Outcome("timeout", {}, log)
    report = judge(for_parser(log, env.log_parser), env.log_parser, task.fail_to_pass, task.pass_to_pass, env.eval_type)
    if not report.usable:
        return Outcome("no_results", report.statuses, log)
    if not report.resolved:
        return Outcome("tests_failed", report.statuses, log)
    second = second_opinion(backend, task, base, patch, folder, spec, APPLY)
    if second is None:
        return Outcome(None, report.statuses, log)
    reason = "tampered" if second.tamper else "gamed" if second.gamed else None
    return Outcome(reason, report.statuses, log, second.tamper, second.gamed, second.flags, second.mutable)
