"""The official route's second opinion. The official parsers read what the test run prints,
so for an instance whose eval script runs pytest, a run the official report would resolve
is run again in a fresh sandbox under dgm's judge: the same eval script (environment,
install, test patch) with its test command handed to the judge, its canaries, twins and
guard included. The judge's results are read from its nonce-framed report, never from
what the tests print; a test the official log calls passed that the judge saw fail is
`tampered`, and the judge's own findings (tampered, gamed) stand.

A judge that cannot start in the image (no pytest it can load apart from the repository)
says so before any repository code runs. Only in pytest's own repository, whose code is the
image's pytest, does the official verdict then stand (with a flag); anywhere else the
repository kept the judge from its pytest, which is `tampered`."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, replace
from pathlib import Path

from sandbox import Backend, Mount, SandboxSpec

from .harness import Reading
from .harness.pytest_harness import PREFIXES, PytestHarness, few
from .swebench.report import resolve_case
from .task import Task

START, END = ": '>>>>> Start Test Output'", ": '>>>>> End Test Output'"
PASSING = {"PASSED", "XFAIL"}


@dataclass(frozen=True)
class Second:
    """What the judge's run adds to the official verdict."""

    tamper: tuple[str, ...] = ()
    gamed: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    mutable: tuple[int, int] = (0, 0)


def test_command(eval_script: str) -> str | None:
    """The eval script's test command, if it is one plain pytest invocation."""
    if eval_script.count(START) != 1 or eval_script.count(END) != 1:
        return None
    body = eval_script.split(START)[1].split(END)[0]
    lines = [line.strip() for line in body.splitlines() if line.strip()]
    if len(lines) != 1:
        return None
    argv = shlex.split(lines[0])
    return lines[0] if any(tuple(argv[: len(p)]) == p for p in (*PREFIXES, ("python", "-m", "pytest"))) else None


def judge_script(eval_script: str, setup: str, command: str) -> str:
    """The eval script with its test command replaced by the judge's run. The nonce is the
    first line of stdin, read before anything else runs and never traced."""
    first, _, others = eval_script.partition("\n")
    script = (
        f"{first}\nIFS= read -r DGM_NONCE\n{others}"
        if first.startswith("#!")
        else f"IFS= read -r DGM_NONCE\n{eval_script}"
    )
    head, rest = script.split(START, 1)
    tail = rest.split(END, 1)[1]
    block = f'{{ set +x; }} 2>/dev/null\n{setup}{command} <<<"$DGM_NONCE"\n'
    return f"{head}{START}\n{block}{END}{tail}"


def second_opinion(
    backend: Backend, task: Task, base: Path, patch: str, folder: Path, spec: SandboxSpec, apply: str
) -> Second | None:
    """The judge's run of `task`'s tests with `patch` applied; None if its eval script does
    not run pytest."""
    env = task.environment
    command = test_command(env.eval_script) if env else None
    if command is None:
        return None
    like = replace(task, test_command=command, environment=None, hidden_files={})
    harness = PytestHarness(root=env.workdir, python="python")
    run = harness.prepare(like, base)
    grade = folder / "judge"
    for name, content in run.files.items():
        (grade / name).parent.mkdir(parents=True, exist_ok=True)
        (grade / name).write_bytes(content)
    (grade / "patch.diff").write_text(patch)
    (grade / "eval.sh").write_text(judge_script(env.eval_script, run.setup, run.command))
    for path in [grade, *grade.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    spec = replace(spec, mounts=(Mount(env.workdir, base, writable=True), Mount("/grade", grade)))
    with backend.start(spec) as session:
        if patch.strip():
            applied = session.exec(["/bin/bash", "-c", apply, "apply", env.workdir], timeout=120)
            if applied.exit_code != 0:
                return Second(tamper=("the patch did not apply again for the judge's run",))
        result = session.exec(
            ["/bin/bash", "-c", "exec /bin/bash /grade/eval.sh 2>&1"], timeout=task.timeout, stdin=run.stdin
        )
    output = result.stdout + result.stderr
    unavailable = re.search(rf"@@dgm-judge {run.state.nonce} unavailable@@ (.*)", output)
    if unavailable:
        return without_judge(base, unavailable.group(1)[:200])
    if result.timed_out:
        return Second(tamper=("the judge's run of the same tests did not finish in time",))
    return _compare(task, harness.read(like, run, output, result.exit_code))


def without_judge(base: Path, why: str) -> Second:
    """The judge could not load pytest apart from the repository: fair in pytest's own
    repository (a `_pytest` package in the base), a sign of tampering anywhere else."""
    if any((base / folder / "_pytest").is_dir() for folder in (".", "src")):
        return Second(flags=(f"no second opinion: {why}",))
    return Second(tamper=(f"the judge could not load pytest in the image: {why}",))


def _compare(task: Task, reading: Reading) -> Second:
    tamper = list(reading.tamper)
    if not reading.tests and not tamper:
        tamper.append("the judge's run of the same tests reported nothing")
    for test in (*task.fail_to_pass, *task.pass_to_pass):
        key = resolve_case(test, reading.tests)  # ids cut at a space match by prefix, as the report does
        got = reading.tests.get(key, "MISSING") if key else "MISSING"
        if reading.tests and got not in PASSING and not (got == "SKIPPED" and test in task.pass_to_pass):
            tamper.append(f"{test}: passed in the official log, {got} under the judge")
    return Second(few(tamper), reading.gamed, reading.flags, reading.mutable)
