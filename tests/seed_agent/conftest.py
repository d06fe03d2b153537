"""Seed-agent fixtures: the seed snapshot tree, a tiny task, and a gateway over the
SCRIPTED upstream (the test double standing in for a model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dgm import agent_exec
from dgm.gateway import Gateway
from dgm.gateway.scripted import ScriptedUpstream
from sandbox import Limits, Mount, SandboxSpec

HIDDEN_TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


@pytest.fixture
def work(tmp_path):
    tmp_path.chmod(0o755)
    return tmp_path


@pytest.fixture
def seed_code(work) -> Path:
    return agent_exec.seed_tree(work / "code")


@pytest.fixture
def task_repo(work) -> Path:
    repo = work / "repo"
    repo.mkdir()
    (repo / "calc.py").write_text('def add(a, b):\n    """Return the sum of a and b."""\n    return a - b\n')
    return repo


TASK = {"id": "calc-1", "statement": "add(2, 3) returns -1; it should return the sum, 5."}


@pytest.fixture
def scripted_gateway(work):
    made = []

    def make(script: dict) -> Gateway:
        gateway = Gateway(ScriptedUpstream(script), work / f"archive{len(made)}.db").start()
        made.append(gateway)
        return gateway

    yield make
    for gateway in made:
        gateway.close()


def hidden_tests_pass(backend, repo: Path, work: Path) -> bool:
    tests = work / "hidden"
    tests.mkdir(mode=0o755)
    (tests / "test_calc.py").write_text(HIDDEN_TEST)
    spec = SandboxSpec(
        mounts=(Mount("/repo", repo, writable=True), Mount("/tests", tests)),
        workdir="/repo",
        env={"PYTHONPATH": "/repo", "PYTHONDONTWRITEBYTECODE": "1"},
        limits=Limits(wall_s=120),
    )
    with backend.start(spec) as session:
        result = session.exec(["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "/tests/test_calc.py"])
    return result.exit_code == 0


def write_evidence(work: Path) -> Path:
    evidence = work / "evidence"
    (evidence / "tasks" / "calc-1").mkdir(parents=True)
    (evidence / "tasks" / "calc-1" / "trajectory.jsonl").write_text(
        json.dumps({"role": "assistant", "content": "I looked at calc.py and stopped."}) + "\n"
    )
    summary = {
        "node_id": 1,
        "score": {"resolved": 0, "total": 1},
        "tasks": [
            {
                "task_id": "calc-1",
                "resolved": False,
                "statement": TASK["statement"],
                "patch": "",
                "test_output": "FAILED test_calc.py::test_add - assert -1 == 5",
                "exit": "ok",
                "trajectory": "tasks/calc-1/trajectory.jsonl",
            }
        ],
        "lineage": [],
        "siblings": [],
        "budget": {},
    }
    (evidence / "summary.json").write_text(json.dumps(summary))
    for path in [evidence, *evidence.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return evidence
