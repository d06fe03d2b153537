"""Engine fixtures: a few built-in tasks as a task folder, and a SCRIPTED upstream (the test
double) that fixes one of them and makes each meta agent leave a small, valid edit."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dgm.agent_exec import seed_tree
from dgm.cli import main
from dgm.suites.loaders.taskdir import BUILTIN_DIR
from tests.helpers import SLUG_FIX

TASKS = ("text-slug-separators", "app-pagination-page-count", "algo-interval-touching")

DIAGNOSIS = {
    "summary": "the agent gave up without reading the code",
    "proposal": "read the files named in the issue before answering",
    "implementation_plan": "add a sentence to seed_agent/prompts/solve_system.md",
}
PROMPT_EDIT = {
    "name": "bash",
    "arguments": {
        "command": "echo 'Read the code the issue is about before you answer.' >> seed_agent/prompts/solve_system.md"
    },
}
SCRIPT = {
    "model": "scripted-engine-test",
    "tool_calling": True,
    "rules": [
        # meta agent: diagnosis, then one edit, then done
        {"when": {"contains": "Answer with ONE JSON object"}, "reply": {"content": json.dumps(DIAGNOSIS)}},
        {"when": {"turn": 0, "system_contains": "improving a coding agent"}, "reply": {"tool_calls": [PROMPT_EDIT]}},
        {"when": {"system_contains": "improving a coding agent"}, "reply": {"content": "done"}},
        # task agent: fixes the slug task, gives up on the others
        {"when": {"turn": 0, "contains": "several dashes in a row"}, "reply": {"tool_calls": [SLUG_FIX]}},
        {"when": {}, "reply": {"content": "I could not find the problem."}},
    ],
}


def make_engine_env(root: Path) -> tuple[Path, Path]:
    """root/tasks (a copy of TASKS) and root/script.json (SCRIPT), for `evolve`."""
    tasks = root / "tasks"
    for task in TASKS:
        shutil.copytree(BUILTIN_DIR / task, tasks / task)
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    return tasks, script


# The seed's self-tests that run real pytest sessions on scratch repositories: most of its
# `check` (about 4 s of it in bwrap; the rest takes under one).
SLOW_SELF_TESTS = ("test_loop.py", "test_probes.py", "test_protocol.py")


def quick_seed_agent(root: Path) -> Path:
    """The shipped seed agent without SLOW_SELF_TESTS, as a folder for `--seed-agent`. Its
    check runs twice per expansion (the meta agent's own, then the engine's), so tests of
    the engine's mechanics that make many children (kill and resume, the Ray executor)
    start from it; the runs of test_engine.py's fixtures start from the shipped seed.
    Made once under `root`: the runs a test compares start from the same agent."""
    tree = root / "quick-seed"
    if not tree.exists():
        seed_tree(tree)
        for name in SLOW_SELF_TESTS:
            (tree / "seed_agent" / "tests" / name).unlink()
    return tree


@pytest.fixture
def engine_env(tmp_path):
    return make_engine_env(tmp_path)


def evolve_args(run: Path, tasks: Path, fm: str, *extra: str) -> list[str]:
    """`dgm evolve` arguments for a run on the task folder `tasks` through upstream `fm`."""
    return ["evolve", "--run", str(run), "--fm", fm, "--benchmark", f"taskdir:{tasks}", *extra]


def evolve_cmd(run: Path, tasks: Path, fm: str, *extra: str) -> list[str]:
    """The same as a separate process on bwrap (so it can be killed)."""
    return [sys.executable, "-m", "dgm", *evolve_args(run, tasks, fm, "--backend", "bwrap", *extra)]


def evolve(run: Path, tasks: Path, script: Path, *extra: str) -> Result:
    """`dgm evolve` in this process through the SCRIPTED upstream reading the rules in `script`."""
    return CliRunner().invoke(main, evolve_args(run, tasks, f"scripted:{script}", *extra))


def evolve_ok(run: Path, tasks: Path, script: Path, *extra: str) -> str:
    """The same, which must succeed; its output."""
    result = evolve(run, tasks, script, *extra)
    assert result.exit_code == 0, result.output
    return result.output


def evidence_keeping_script(root: Path) -> Path:
    """SCRIPT with meta agents that copy their /evidence/summary.json into their own code,
    so each child's snapshot shows what its meta agent was given (see `evidence_seen`)."""
    script = json.loads(json.dumps(SCRIPT))
    keep = "cp /evidence/summary.json seed_agent/memory/evidence.json"
    script["rules"][1]["reply"]["tool_calls"][0]["arguments"]["command"] = keep
    path = root / "evidence-script.json"
    path.write_text(json.dumps(script))
    return path


def evidence_seen(archive, node_id: int, scratch: Path) -> dict:
    """The evidence summary child `node_id`'s meta agent was given (evidence_keeping_script)."""
    dest = scratch / f"seen-{node_id}"
    archive.materialize(archive.node(node_id).snapshot, dest)
    return json.loads((dest / "seed_agent" / "memory" / "evidence.json").read_text())


def fix_call(task_id: str) -> dict:
    """A scripted tool call applying the built-in task's reference patch (the test double
    knows the answer; an agent never sees it)."""
    patch = (BUILTIN_DIR / task_id / "reference.patch").read_text()
    return {"name": "bash", "arguments": {"command": f"git apply <<'PATCH'\n{patch}PATCH"}}


def branching_script(root: Path, branches: dict[str, tuple[str, dict]]) -> Path:
    """SCRIPT whose meta agents write a mark `branch-PARENT-SIBLINGS` into the solve prompt
    (children inherit their ancestors' marks), and whose task agents, under a mark in
    `branches` (mark -> (text of the issue, reply)), answer that issue with that reply, so
    lineages resolve different tasks."""
    script = json.loads(json.dumps(SCRIPT))
    mark = (
        "python3 -c \"import json; s = json.load(open('/evidence/summary.json')); "
        "print('branch-%d-%d' % (s['node_id'], len(s['siblings'])))\" >> seed_agent/prompts/solve_system.md"
    )
    script["rules"][1]["reply"]["tool_calls"][0]["arguments"]["command"] = mark
    for i, (name, (text, reply)) in enumerate(branches.items()):
        rule = {"when": {"turn": 0, "system_contains": name, "contains": text}, "reply": reply}
        script["rules"].insert(3 + i, rule)
    path = root / "branching-script.json"
    path.write_text(json.dumps(script))
    return path
