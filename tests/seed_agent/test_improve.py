"""`improve` edits the agent's own copy (in a bwrap sandbox, SCRIPTED upstream); the edited
copy passes `check` in a fresh sandbox, and an edit that breaks the agent fails it."""

from __future__ import annotations

import json
import re

from dgm import agent_exec
from tests.seed_agent.conftest import write_evidence

DIAGNOSIS = {
    "summary": "the agent stopped after reading the file",
    "proposal": "tell the task agent to run the code after editing",
    "implementation_plan": "add a line to seed_agent/prompts/solve_system.md and a test for it",
}
NEW_TEST = (
    "import unittest\nfrom pathlib import Path\n\n\nclass PromptTest(unittest.TestCase):\n"
    "    def test_prompt_asks_to_run_the_code(self):\n"
    "        text = (Path(__file__).parent.parent / 'prompts' / 'solve_system.md').read_text()\n"
    "        self.assertIn('Run the code after each edit.', text)\n"
)


def improve_script(edit_call: dict) -> dict:
    return {
        "tool_calling": True,
        "rules": [
            {"when": {"contains": "Answer with ONE JSON object"}, "reply": {"content": json.dumps(DIAGNOSIS)}},
            {"when": {"turn": 0, "system_contains": "improving a coding agent"}, "reply": {"tool_calls": [edit_call]}},
            {
                "when": {"turn": 1, "system_contains": "improving a coding agent"},
                "reply": {
                    "tool_calls": [
                        {
                            "name": "edit",
                            "arguments": {
                                "command": "create",
                                "path": "seed_agent/tests/test_prompt_rule.py",
                                "file_text": NEW_TEST,
                            },
                        }
                    ]
                },
            },
            {
                "when": {"turn": 2},
                "reply": {"tool_calls": [{"name": "bash", "arguments": {"command": "python3 -m seed_agent check"}}]},
            },
            {"when": {}, "reply": {"content": "Implemented."}},
        ],
    }


GOOD_EDIT = {
    "name": "edit",
    "arguments": {
        "command": "str_replace",
        "path": "seed_agent/prompts/solve_system.md",
        "old_str": "Work in small steps:",
        "new_str": "Run the code after each edit.\nWork in small steps:",
    },
}
BREAKING_EDIT = {
    "name": "edit",
    "arguments": {
        "command": "str_replace",
        "path": "seed_agent/loop.py",
        "old_str": "def run(model",
        "new_str": "def run(model,, broken",
    },
}


def improve(bwrap, gateway, seed_code, work):
    access = agent_exec.Access(gateway.socket_path, gateway.issue_token())
    return agent_exec.improve(agent_exec.Host(bwrap, access), seed_code, write_evidence(work), work / "job")


def test_improve_edits_its_own_copy_which_passes_check(bwrap, scripted_gateway, seed_code, work):
    gateway = scripted_gateway(improve_script(GOOD_EDIT))
    run = improve(bwrap, gateway, seed_code, work)
    assert run.result.exit_code == 0, run.result.stderr
    report = json.loads((run.out / "improve.json").read_text())
    assert report["focus"] == "calc-1"
    assert report["diagnosis"] == DIAGNOSIS
    assert report["check_passed"] is True, report["check_output"]
    child = work / "job" / "agent"
    assert "Run the code after each edit." in (child / "seed_agent/prompts/solve_system.md").read_text()
    assert (child / "seed_agent/tests/test_prompt_rule.py").exists()
    assert "tell the task agent to run the code" in (child / "seed_agent/memory/notes.md").read_text()
    assert "Run the code" not in (seed_code / "seed_agent/prompts/solve_system.md").read_text()  # parent intact
    checked = agent_exec.check(bwrap, child)
    assert checked.exit_code == 0, checked.stderr
    seed_tests = int(re.search(r"Ran (\d+) tests", agent_exec.check(bwrap, seed_code).stderr).group(1))
    assert f"Ran {seed_tests + 1} tests" in checked.stderr  # the child's new test ran too


def test_an_edit_that_breaks_the_agent_fails_check(bwrap, scripted_gateway, seed_code, work):
    gateway = scripted_gateway(improve_script(BREAKING_EDIT))
    run = improve(bwrap, gateway, seed_code, work)
    report = json.loads((run.out / "improve.json").read_text())
    assert report["check_passed"] is False
    assert "SyntaxError" in report["check_output"]
    checked = agent_exec.check(bwrap, work / "job" / "agent")
    assert checked.exit_code != 0
    assert "cannot import seed_agent.solve" in checked.stderr
