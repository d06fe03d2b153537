"""Ctrl-C stops `dgm eval` as it stops `dgm evolve`: the first finishes the running tasks and
starts no more, and says how to go on; the second stops at once, closing the running tasks'
sandboxes. Before, the first waited silently, and after the second the process stayed
alive until its agents ended by themselves (up to the job's time limit), two cores busy."""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path

import pytest

from archive import Archive
from dgm import agent_exec
from tests.conftest import descendants
from tests.engine.conftest import make_engine_env
from tests.reliability.conftest import sandbox_processes, start

pytestmark = [pytest.mark.faults]


def script_running(command: str) -> dict:
    """SCRIPTED upstream: the solving agent runs `command`, then stops."""
    return {
        "model": "scripted-eval-stop",
        "tool_calling": True,
        "rules": [
            {
                "when": {"turn": 0, "system_contains": "software engineer"},
                "reply": {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]},
            },
            {"when": {}, "reply": {"content": "done"}},
        ],
    }


def eval_cmd(root: Path, command: str) -> tuple[list[str], Path]:
    """`dgm eval` of the seed agent on the engine tests' three tasks, one at a time, as a
    separate process (so it can be signalled), with an agent that runs `command`."""
    root.chmod(0o755)  # sandboxes run as another user
    tasks, _ = make_engine_env(root)
    script = root / "stop-script.json"
    script.write_text(json.dumps(script_running(command)))
    run = root / "evals"
    cmd = [sys.executable, "-m", "dgm", "eval", "--run", str(run), "--agent", str(agent_exec.seed_agent_dir())]
    cmd += ["--benchmark", f"taskdir:{tasks}", "--fm", f"scripted:{script}", "--workers", "1", "--backend", "bwrap"]
    return cmd, run


def wait_for_a_running_task(run: Path, proc, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if (run / "archive.db").exists():
            with Archive.for_run(run) as ar:
                if ar.jobs.counts()["running"] >= 1:
                    return
        time.sleep(0.1)
    raise AssertionError("the eval did not get going")


def test_one_ctrl_c_finishes_the_running_task_and_says_how_to_go_on(bwrap, tmp_path):
    cmd, run = eval_cmd(tmp_path, "sleep 4")
    proc = start(cmd)
    wait_for_a_running_task(run, proc)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0, out[-2000:]
    assert "SIGINT received: finishing running jobs" in out
    assert "with 1 of 3 tasks recorded; go on with: dgm eval" in out, out[-2000:]
    with Archive.for_run(run) as ar:
        assert len(ar.evaluations()) == 1  # the running task was finished and recorded; no other started
        assert ar.jobs.counts()["running"] == 0
    again = out.split("go on with: dgm ", 1)[1].splitlines()[0].split()  # the same eval by node: the rest
    proc = start([sys.executable, "-m", "dgm", *again])
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, out[-2000:]
    assert "0/3 resolved (1 tasks were recorded before)" in out


def test_a_second_ctrl_c_stops_at_once_and_closes_the_sandboxes(bwrap, tmp_path):
    cmd, run = eval_cmd(tmp_path, "sleep 317")  # an agent that would run on for minutes
    proc = start(cmd)
    wait_for_a_running_task(run, proc)
    time.sleep(1)  # the agent's command is running
    tree = descendants(proc.pid)
    assert sandbox_processes(wait_s=0, among=tree)  # the running task's sandbox
    began = time.monotonic()
    proc.send_signal(signal.SIGINT)
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=90)
    took = time.monotonic() - began
    assert proc.returncode == 0, out[-2000:]
    assert took < 45, f"the eval took {took:.0f}s to stop"
    assert sandbox_processes(among=tree) == []
    with Archive.for_run(run) as ar:
        assert ar.jobs.counts()["running"] == 0
        (job,) = ar.jobs.list(state="failed")
        assert "stopped: SIGINT received again" in job.error
        assert ar.evaluations() == []
    assert "with 0 of 3 tasks recorded; go on with:" in out
