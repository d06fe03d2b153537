"""pytest under the grader's own judge (judge.py): the base repository's configuration
under a name the patch cannot know, canaries in every test file, results read from the
judge's nonce-framed report and never from what the test process prints."""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..task import BenchmarkError, Task
from . import canaries
from .base import Reading, Run
from .pytest_config import common_folder, locate

JUDGE = Path(__file__).with_name("judge.py")
PREFIXES = (("python3", "-m", "pytest"), ("python", "-m", "pytest"), ("pytest",), ("py.test",))
# pytest options whose value is the next word (so that word is not a test path).
VALUED = {"-p", "-k", "-m", "-c", "-o", "-W", "--tb", "--maxfail", "--durations", "--rootdir", "--confcutdir"}
VALUED |= {"--ignore", "--deselect", "--basetemp", "--junitxml", "--import-mode", "--config-file", "-n"}


@dataclass(frozen=True)
class State:
    nonce: str
    pair: canaries.Canaries
    targets: tuple[str, ...]  # test files that carry the canaries, as pytest names them
    explicit: frozenset[str]  # those named on the command line (pytest must report them)


def split_command(task: Task) -> list[str]:
    """The task's pytest arguments (its command must be a plain pytest invocation)."""
    argv = shlex.split(task.command())
    for prefix in PREFIXES:
        if tuple(argv[: len(prefix)]) == prefix:
            return argv[len(prefix) :]
    raise BenchmarkError(
        f"task {task.id}: the pytest harness runs `python3 -m pytest ARGS`; its test command "
        f"{task.command()!r} is not of that form (use log_parser 'exit_code' for other runners)"
    )


def path_args(args: list[str]) -> list[str]:
    paths, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-"):
            skip = arg in VALUED
        else:
            paths.append(arg.split("::")[0])
    return paths


def _is_test_module(path: str) -> bool:
    name = PurePosixPath(path).name
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def _uncount(log: str, less: dict[str, int]) -> str:
    """pytest's closing counts line without the canaries' outcomes."""
    lines = log.rstrip("\n").split("\n")
    for i in range(len(lines) - 1, -1, -1):
        if re.search(r"\d+ (passed|failed).* in [\d.]+s", lines[i]):
            for word, n in less.items():
                lines[i] = re.sub(
                    rf"(\d+) {word}", lambda m, n=n, w=word: f"{int(m.group(1)) - n} {w}", lines[i], count=1
                )
            break
    return "\n".join(lines) + "\n"


class PytestHarness:
    def check(self, task: Task) -> None:
        split_command(task)

    def prepare(self, task: Task, base: Path) -> Run:
        args = split_command(task)
        paths = path_args(args)
        starts = [p if (base / p).is_dir() else str(PurePosixPath(p).parent) for p in paths]
        config = locate(base, common_folder([f"{s}/x" for s in starts]) if starts else ".")
        config_path = config.path(f".dgm-grader-{secrets.token_hex(6)}")
        files = sorted({p for p in paths if p.endswith(".py")} | {h for h in task.hidden_paths() if _is_test_module(h)})
        files = [f for f in files if PurePosixPath(f).name not in ("conftest.py", "__init__.py")]
        known = "".join(c.decode(errors="replace") for c in task.hidden_files.values()) + task.hidden_patch
        pair = canaries.draw(known)
        quoted = [shlex.quote(f) for f in files]
        setup = f"cp /grade/pytest-config {shlex.quote(config_path)}\n" + "".join(
            f"if [ -f {f} ] && [ ! -L {f} ]; then cat /grade/canaries.py >> {f}; fi\n" for f in quoted
        )
        rootdir = str(PurePosixPath("/repo") / config.folder)
        command = shlex.join(
            ["python3", "-I", "/grade/judge.py", "--config", f"/repo/{config_path}", "--rootdir", rootdir]
            + ["--deps", "/tmp/deps", "--", *args]
        )
        named = {os.path.relpath(f, config.folder) for f in files}
        state = State(
            secrets.token_hex(16),
            pair,
            tuple(sorted(named)),
            frozenset(os.path.relpath(p, config.folder) for p in paths if p in files),
        )
        inputs = {"judge.py": JUDGE.read_bytes(), "pytest-config": config.content, "canaries.py": pair.source.encode()}
        return Run(command, inputs, setup, state.nonce + "\n", state)

    def read(self, task: Task, run: Run, output: str, exit_code: int) -> Reading:
        state: State = run.state
        frame = re.compile(rf"\n?@@dgm-judge {state.nonce} begin@@\n(.*?)\n@@dgm-judge {state.nonce} end@@\n", re.S)
        found = frame.findall(output)
        log = state.pair.scrub(frame.sub("", output))
        if not found:
            why = ("the test process exited 0 before the judge could report",) if exit_code == 0 else ()
            return Reading({}, why, log)
        report = json.loads(found[-1])
        names = set(state.pair.names())
        results = {**report["results"], **report["collect_errors"]}
        tests = {k: v for k, v in results.items() if k.rpartition("::")[2] not in names}
        canary = [v for k, v in results.items() if k not in tests]
        log = _uncount(log, {"passed": canary.count("PASSED"), "failed": canary.count("FAILED")})
        return Reading(tests, tuple(self._tampering(state, report, results)), log)

    @staticmethod
    def _tampering(state: State, report: dict, results: dict[str, str]):
        if report["changed"]:
            yield f"pytest's internals were replaced during the run: {', '.join(report['changed'][:6])}"
        if report["unaccounted"]:
            yield f"results for tests pytest never collected: {', '.join(report['unaccounted'][:6])}"
        if report["unreported"]:
            yield f"collected tests without a result: {', '.join(report['unreported'][:6])}"
        if report["finished"] and report["counted_failed"] != report["failed_reports"]:
            yield f"pytest counted {report['counted_failed']} failures, its reports say {report['failed_reports']}"
        for target in state.targets:
            if target in report["collect_errors"]:
                continue  # the file did not import: its tests failed, canaries included
            if not any(k.startswith(f"{target}::") for k in results):
                if target in state.explicit:
                    yield f"{target} was named on the command line but reported nothing"
                continue
            for name, wanted in zip(state.pair.names(), ("PASSED", "FAILED"), strict=True):
                got = results.get(f"{target}::{name}", "MISSING")
                if got != wanted:
                    yield f"a canary test in {target} that must be {wanted} was {got}"
