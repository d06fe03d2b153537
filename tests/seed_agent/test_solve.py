"""`solve` fixes a small task end to end: the seed agent in a bwrap sandbox, talking to the
SCRIPTED upstream through the gateway, with native tool calls and with the text protocol."""

from __future__ import annotations

import json

from dgm import agent_exec
from tests.seed_agent.conftest import TASK, hidden_tests_pass

RUN_IT = "python3 -c 'import calc; print(calc.add(2, 3))'"
TOOL_SCRIPT = {
    "tool_calling": True,
    "rules": [
        {
            "when": {"turn": 0, "system_contains": "software engineer"},
            "reply": {"tool_calls": [{"name": "edit", "arguments": {"command": "view", "path": "calc.py"}}]},
        },
        {
            "when": {"turn": 1, "last_contains": "return a - b"},
            "reply": {
                "tool_calls": [
                    {
                        "name": "edit",
                        "arguments": {
                            "command": "str_replace",
                            "path": "calc.py",
                            "old_str": "return a - b",
                            "new_str": "return a + b",
                        },
                    }
                ]
            },
        },
        {
            "when": {"turn": 2, "last_contains": "replaced 1 occurrence"},
            "reply": {"tool_calls": [{"name": "bash", "arguments": {"command": RUN_IT}}]},
        },
        {"when": {"turn": 3, "last_contains": "5"}, "reply": {"content": "add() now returns the sum."}},
    ],
}

TEXT_SCRIPT = {
    "tool_calling": False,
    "rules": [
        {"when": {"turn": 0, "system_contains": "FILE:"}, "reply": {"content": "```bash\ncat calc.py\n```"}},
        {
            "when": {"turn": 1, "last_contains": "return a - b"},
            "reply": {
                "content": 'FILE: calc.py\n```python\ndef add(a, b):\n    """Return the sum of a and b."""\n'
                "    return a + b\n```\n"
            },
        },
        {"when": {"turn": 2, "last_contains": r"\+    return a \+ b"}, "reply": {"content": "DONE"}},
    ],
}


def solve(bwrap, gateway, seed_code, task_repo, work):
    token = gateway.issue_token()
    host = agent_exec.Host(bwrap, agent_exec.Access(gateway.socket_path, token))
    return agent_exec.solve(host, seed_code, TASK, task_repo, work / "job")


def test_solve_with_tool_calls(bwrap, scripted_gateway, seed_code, task_repo, work):
    gateway = scripted_gateway(TOOL_SCRIPT)
    run = solve(bwrap, gateway, seed_code, task_repo, work)
    assert run.result.exit_code == 0, run.result.stderr
    summary = json.loads((run.out / "solve.json").read_text())
    assert (summary["status"], summary["protocol"], summary["calls"]) == ("done", "tools", 4)
    assert "return a + b" in (work / "job" / "repo" / "calc.py").read_text()
    assert "return a - b" in (task_repo / "calc.py").read_text()  # the host copy is untouched
    assert hidden_tests_pass(bwrap, work / "job" / "repo", work)
    trajectory = [json.loads(line) for line in (run.out / "trajectory.jsonl").read_text().splitlines()]
    assert [m["role"] for m in trajectory].count("tool") == 3
    assert len(gateway.archive.fm_calls()) == 4


def test_solve_with_the_text_protocol(bwrap, scripted_gateway, seed_code, task_repo, work):
    gateway = scripted_gateway(TEXT_SCRIPT)
    run = solve(bwrap, gateway, seed_code, task_repo, work)
    summary = json.loads((run.out / "solve.json").read_text())
    assert (summary["status"], summary["protocol"]) == ("done", "text")
    assert hidden_tests_pass(bwrap, work / "job" / "repo", work)


def test_unsolved_task_fails_the_hidden_tests(bwrap, scripted_gateway, seed_code, task_repo, work):
    gateway = scripted_gateway({"rules": [{"when": {}, "reply": {"content": "I cannot fix this."}}]})
    run = solve(bwrap, gateway, seed_code, task_repo, work)
    assert json.loads((run.out / "solve.json").read_text())["status"] == "done"
    assert not hidden_tests_pass(bwrap, work / "job" / "repo", work)
