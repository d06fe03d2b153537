"""pytest under the grader's own judge (judge.py): the base repository's configuration
under a name the patch cannot know, canaries in every test file, results read from the
judge's nonce-framed report and never from what the test process prints."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..task import BenchmarkError, Task
from . import canaries, twins
from .base import Reading, Run
from .pytest_config import common_folder, locate

JUDGE = Path(__file__).with_name("judge.py")
GUARD = Path(__file__).with_name("guard.py")
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
    plan: twins.Plan  # the twins of this run, and which name is whose
    mutable: tuple[int, int]  # tests with a literal expectation (that got twins), of those that count


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


STOPS = {"-x", "--exitfirst", "--sw", "--stepwise", "--sw-skip", "--stepwise-skip"}


def without_stops(args: list[str]) -> list[str]:
    """The arguments without those that end a run at its first failures (-x, --maxfail,
    stepwise): every run has tests that must fail (a canary, the twins)."""
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--maxfail":
            skip = True
        elif arg not in STOPS and not arg.startswith("--maxfail="):
            kept.append(arg)
    return kept


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


WORDS = {  # a status -> its word in pytest's closing counts line
    "PASSED": "passed",
    "FAILED": "failed",
    "ERROR": "errors?",
    "SKIPPED": "skipped",
    "XFAIL": "xfailed",
    "XPASS": "xpassed",
}


def _uncount(log: str, statuses: list[str]) -> str:
    """pytest's closing counts line without the outcomes of the tests the grader added."""
    lines = log.rstrip("\n").split("\n")
    for i in range(len(lines) - 1, -1, -1):
        if re.search(r"\d+ (passed|failed|errors?|skipped|xfailed|xpassed).* in [\d.]+s", lines[i]):
            for status, word in WORDS.items():
                n = statuses.count(status)
                lines[i] = re.sub(
                    rf"(\d+) ({word})\b", lambda m, n=n: f"{int(m.group(1)) - n} {m.group(2)}", lines[i], count=1
                )
            lines[i] = re.sub(
                r"(?<![\w.])0 (?:passed|failed|errors?|skipped|xfailed|xpassed)(?:, |(?= in ))", "", lines[i]
            )
            break
    return "\n".join(lines) + "\n"


def _text(value) -> str:
    """A finding from inside the sandbox, as one short line (whatever it was made of)."""
    if isinstance(value, str) and value.startswith('"'):
        with contextlib.suppress(ValueError):  # kept as it came
            value = json.loads(value)
    return str(value).replace("\n", " ")[:300]


def few(reasons, most: int = 8) -> tuple[str, ...]:
    """Distinct reasons, at most `most` of them and a count of the rest."""
    unique = list(dict.fromkeys(reasons))
    return tuple(unique[:most] + ([f"... and {len(unique) - most} more"] if len(unique) > most else []))


def _source(task: Task, base: Path, path: str, hidden: set[str]) -> bytes | None:
    """A test file as the grading run has it: hidden, the base's with the hidden diff
    applied (`hidden`: the task's hidden paths), or the base's."""
    if path in task.hidden_files:
        return task.hidden_files[path]
    if path not in hidden:
        return (base / path).read_bytes() if (base / path).is_file() else None
    with tempfile.TemporaryDirectory(prefix="dgm-twins-") as tmp:
        dest = Path(tmp) / path
        dest.parent.mkdir(parents=True, exist_ok=True)
        if (base / path).is_file():
            dest.write_bytes((base / path).read_bytes())
        (Path(tmp) / ".hidden.diff").write_text(task.hidden_patch)
        proc = subprocess.run(["git", "apply", "--include", path, ".hidden.diff"], cwd=tmp, capture_output=True)
        return dest.read_bytes() if proc.returncode == 0 and dest.is_file() else None


def plan_twins(task: Task, base: Path, args: list[str], avoid: str) -> tuple[twins.Plan, tuple[int, int]]:
    """The twins of the tests that must pass (every collected test of the hidden test files
    when the task is judged whole), and how many of those tests they cover."""
    plan = twins.Plan()
    wanted: dict[str, set[str] | None] = {}
    if task.all_must_pass:
        wanted = {path: None for path in task.hidden_files if _is_test_module(path)}
    for test_id in task.fail_to_pass:
        path, qualname = _key(test_id)
        wanted.setdefault(path, set()).add(qualname)
    if any(a.startswith("-k") or "::" in a for a in args):
        plan.left_out.append("the test command selects tests by name")
        wanted = {}
    hidden = task.hidden_paths()
    for path, names in sorted(wanted.items()):
        data = _source(task, base, path, hidden)
        if data is None:
            plan.left_out.append(f"{path}: not found")
            continue
        twins.plan_file(plan, path, data, names, avoid)
    if task.all_must_pass:
        return plan, (len(plan.covered), len(plan.seen))
    covered = [t for t in task.fail_to_pass if _key(t) in plan.covered]
    return plan, (len(covered), len(task.fail_to_pass))


def _key(test_id: str) -> tuple[str, str]:
    """`file::Class::name[params]` -> (`file`, `Class.name`)."""
    path, _, rest = test_id.partition("::")
    return path, rest.split("[")[0].replace("::", ".")


class PytestHarness:
    """`root`: where the repository is in the grading sandbox; `python`: the interpreter
    that has pytest there (a task's own environment names its own)."""

    def __init__(self, root: str = "/repo", python: str = "python3"):
        self.root, self.python = root, python

    def check(self, task: Task) -> None:
        split_command(task)

    def prepare(self, task: Task, base: Path) -> Run:
        args = without_stops(split_command(task))
        paths = path_args(args)
        starts = [p if (base / p).is_dir() else str(PurePosixPath(p).parent) for p in paths]
        config = locate(base, common_folder([f"{s}/x" for s in starts]) if starts else ".")
        config_path = config.path(f".dgm-grader-{secrets.token_hex(6)}")
        files = sorted({p for p in paths if p.endswith(".py")} | {h for h in task.hidden_paths() if _is_test_module(h)})
        files = [f for f in files if PurePosixPath(f).name not in ("conftest.py", "__init__.py")]
        known = "".join(c.decode(errors="replace") for c in task.hidden_files.values()) + task.hidden_patch
        plan, mutable = plan_twins(task, base, args, known)
        pair = canaries.draw(" ".join([known, *plan.fresh, *plan.twins]))
        quoted = [shlex.quote(f) for f in files]
        setup = f"cp /grade/pytest-config {shlex.quote(config_path)}\n" + "".join(
            f"if [ ! -L {f} ]; then cp /grade/twins/{f} {f}; fi\n" for f in map(shlex.quote, sorted(plan.files))
        )
        setup += "".join(f"if [ -f {f} ] && [ ! -L {f} ]; then cat /grade/canaries.py >> {f}; fi\n" for f in quoted)
        rootdir = str(PurePosixPath(self.root) / config.folder)
        command = shlex.join(
            [
                self.python,
                "-I",
                "/grade/judge.py",
                "--config",
                f"{self.root}/{config_path}",
                "--rootdir",
                rootdir,
                "--deps",
                "/tmp/deps",
                *(f"--tests={self.root}/{f}" for f in files),
                "--",
                *args,
            ]
        )
        named = {os.path.relpath(f, config.folder) for f in files}
        state = State(
            secrets.token_hex(16),
            pair,
            tuple(sorted(named)),
            frozenset(os.path.relpath(p, config.folder) for p in paths if p in files),
            plan,
            mutable,
        )
        inputs = {"judge.py": JUDGE.read_bytes(), "guard.py": GUARD.read_bytes(), "pytest-config": config.content}
        inputs["canaries.py"] = pair.source.encode()
        inputs.update({f"twins/{path}": data for path, data in plan.files.items()})
        return Run(command, inputs, setup, state.nonce + "\n", state)

    def read(self, task: Task, run: Run, output: str, exit_code: int) -> Reading:
        state: State = run.state
        frame = re.compile(rf"\n?@@dgm-judge {state.nonce} begin@@\n(.*?)\n@@dgm-judge {state.nonce} end@@\n", re.S)
        found = frame.findall(output)
        event = re.compile(rf"\n?@@dgm-judge {state.nonce} event@@ (.*)\n")
        events = [_text(e) for e in event.findall(output)]
        log = twins.scrub(state.plan, state.pair.scrub(event.sub("", frame.sub("", output))))
        if not found:
            why = events + (["the test process exited 0 before the judge could report"] if exit_code == 0 else [])
            return Reading({}, few(twins.rename(state.plan, w) for w in why), log, mutable=state.mutable)
        report = json.loads(found[-1])
        names = set(state.pair.names())
        results = {**report["results"], **report["collect_errors"]}
        tests = {k: v for k, v in results.items() if k.rpartition("::")[2] not in names}
        outcome = twins.read(state.plan, tests)
        added = [v for k, v in results.items() if k not in tests] + list(outcome.twin_results.values())
        log = _uncount(log, added)
        guard = report.get("guard") or {}
        tamper = [*self._tampering(state, report, results), *events, *map(_text, guard.get("tamper", []))]
        tamper = [twins.rename(state.plan, t) for t in (*tamper, *outcome.why_missing())]
        flags = (*outcome.flags, *map(_text, guard.get("flags", [])))
        return Reading(outcome.tests, few(tamper), log, outcome.why_gamed(), few(flags), state.mutable)

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
