"""Agents from elsewhere: `dgm eval --agent` and `dgm evolve --seed-agent` take a folder (an
export, or the seed_agent package folder itself) or another run's node (RUN:NODE), run the
agent's own check first and refuse what is not a runnable agent, with the check's output;
an agent that crashes fails its tasks with `agent_failed`, never `tests_failed`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from archive import Archive
from dgm import agent_exec
from dgm.cli import main


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def exported(scripted_run, tmp_path):
    """Node 2 of the scripted run (its meta agent added a line to the solve prompt), exported."""
    run, _ = scripted_run
    tmp_path.chmod(0o755)
    out = tmp_path / "agent"
    assert cli("export", "--run", run, "2", "--out", out).exit_code == 0
    return out


def eval_args(scripted_run, evals, agent):
    run, script = scripted_run
    tasks = f"taskdir:{run.parent / 'tasks'}"
    return ("eval", "--run", evals, "--agent", agent, "--benchmark", tasks, "--fm", f"scripted:{script}")


def evolve_args(scripted_run, new_run):
    run, script = scripted_run
    tasks = f"taskdir:{run.parent / 'tasks'}"
    return ("evolve", "--run", new_run, "--fm", f"scripted:{script}", "--benchmark", tasks)


def test_eval_refuses_a_folder_that_is_not_an_agent(scripted_run, tmp_path):
    (tmp_path / "notes").mkdir()
    result = cli(*eval_args(scripted_run, tmp_path / "evals", tmp_path / "notes"))
    assert result.exit_code != 0
    assert "is not an agent" in result.output
    assert not (tmp_path / "evals").exists()


def test_eval_refuses_an_agent_that_fails_its_check_and_shows_why(scripted_run, exported, tmp_path):
    test = exported / "seed_agent" / "tests" / "test_broken.py"
    test.write_text(
        "import unittest\n\n\nclass Broken(unittest.TestCase):\n"
        "    def test_it(self):\n        self.fail('broken on purpose')\n"
    )
    result = cli(*eval_args(scripted_run, tmp_path / "evals", exported))
    assert result.exit_code != 0
    assert "is not a runnable agent: its check failed" in result.output
    assert "broken on purpose" in result.output
    assert not (tmp_path / "evals" / "archive.db").exists()


def test_eval_of_the_seed_agent_package_folder_itself(scripted_run, tmp_path):
    package = agent_exec.seed_agent_dir()
    result = cli(*eval_args(scripted_run, tmp_path / "evals", package))
    assert result.exit_code == 0, result.output
    assert "1/3 resolved" in result.output  # the scripted model fixes one of the three tasks
    with Archive.for_run(tmp_path / "evals") as ar:
        assert ar.nodes()[0].origin["imported"] == {"path": str(package.resolve())}


def test_eval_of_another_runs_node(scripted_run, tmp_path):
    run, _ = scripted_run
    result = cli(*eval_args(scripted_run, tmp_path / "evals", f"{run}:2"))
    assert result.exit_code == 0, result.output
    with Archive.for_run(run) as source, Archive.for_run(tmp_path / "evals") as ar:
        node = ar.nodes()[0]
        assert node.snapshot == source.node(2).snapshot
        assert node.origin["imported"] == {"run": str(run.resolve()), "node": 2, "snapshot": node.snapshot}


def test_eval_of_an_unknown_node_of_another_run(scripted_run, tmp_path):
    run, _ = scripted_run
    result = cli(*eval_args(scripted_run, tmp_path / "evals", f"{run}:999"))
    assert result.exit_code != 0
    assert "999" in result.output
    assert not (tmp_path / "evals").exists()


def test_an_agent_that_crashes_fails_with_agent_failed_and_its_stderr(scripted_run, exported, tmp_path):
    solve = exported / "seed_agent" / "solve.py"
    solve.write_text(
        solve.read_text() + "\n\ndef run(task_path, repo, out):\n    raise RuntimeError('crashed on purpose')\n"
    )
    result = cli(*eval_args(scripted_run, tmp_path / "evals", exported))
    assert result.exit_code == 0, result.output
    assert "0/3 resolved" in result.output
    with Archive.for_run(tmp_path / "evals") as ar:
        evaluations = ar.evaluations()
        assert len(evaluations) == 3
        for evaluation in evaluations:
            bundle = json.loads(ar.blob(evaluation.log_blob))
            assert bundle["reason"] == "agent_failed"
            assert "crashed on purpose" in bundle["test_log"]
    assert "tests_failed" not in result.output
    assert result.output.count("agent_failed") == 3


def test_evolve_from_an_export_starts_from_it(scripted_run, exported, tmp_path):
    new_run = tmp_path / "run"
    result = cli(*evolve_args(scripted_run, new_run), "--seed-agent", exported, "--max-evals", "1")
    assert result.exit_code == 0, result.output
    with Archive.for_run(new_run) as ar:
        seed = ar.node(1)
        assert seed.origin["seed_agent"] == {"path": str(exported.resolve())}
        ar.materialize(seed.snapshot, tmp_path / "seed")
    prompt = (tmp_path / "seed" / "seed_agent" / "prompts" / "solve_system.md").read_text()
    assert "Read the code the issue is about" in prompt  # node 2's edit, not the shipped seed


def test_evolve_from_another_runs_node_starts_from_its_snapshot(scripted_run, tmp_path):
    run, _ = scripted_run
    new_run = tmp_path / "run"
    result = cli(*evolve_args(scripted_run, new_run), "--seed-agent", f"{run}:2", "--max-evals", "1")
    assert result.exit_code == 0, result.output
    with Archive.for_run(run) as source, Archive.for_run(new_run) as ar:
        assert ar.node(1).snapshot == source.node(2).snapshot
        assert ar.node(1).origin["seed_agent"]["node"] == 2


def test_evolve_refuses_a_seed_agent_that_fails_its_check(scripted_run, exported, tmp_path):
    (exported / "seed_agent" / "check.py").write_text("def run():\n    raise SystemExit('refused on purpose')\n")
    result = cli(*evolve_args(scripted_run, tmp_path / "run"), "--seed-agent", exported, "--max-evals", "1")
    assert result.exit_code != 0
    assert "its check failed" in result.output
    assert "refused on purpose" in result.output
    with Archive.for_run(tmp_path / "run") as ar:
        assert ar.nodes() == []
