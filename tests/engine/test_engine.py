"""Whole runs: the real archive, real bwrap sandboxes, the real gateway and the SCRIPTED
upstream (the test double), in both modes; and a run killed with SIGKILL and resumed."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import time

import pytest
from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from tests.conftest import require
from tests.engine.conftest import evolve_cmd, evolve_ok, make_engine_env, quick_seed_agent

pytestmark = pytest.mark.minutes(11)  # see tests/conftest.py

SEEDED = ("--backend", "bwrap", "--seed", "7")
SLUG = "text-slug-separators"


def archive_state(run):
    with Archive.for_run(run) as ar:
        assert ar.integrity_check() == []
        nodes = [(n.id, n.parent_id, n.second_parent_id, n.snapshot, n.status) for n in ar.nodes()]
        evals = sorted((e.node_id, e.task_id, e.resolved, e.attempt) for e in ar.evaluations())
        return nodes, evals


def made_run(tmp_path_factory, availability, name, *flags):
    """One real run (made once per module, read by several tests): its folder and output."""
    require("bwrap", availability)
    root = tmp_path_factory.mktemp(name)
    root.chmod(0o755)
    tasks, script = make_engine_env(root)
    run = root / "run"
    return run, evolve_ok(run, tasks, script, *SEEDED, "--workers", "2", *flags)


# --- HGM: 6 expansions and 21 evaluations over the three tasks --------------------------------


@pytest.fixture(scope="module")
def hgm_run(tmp_path_factory, availability):
    return made_run(
        tmp_path_factory, availability, "hgm", "--mode", "hgm", "--max-expansions", "6", "--max-evals", "21"
    )


@pytest.fixture(scope="module")
def hgm_state(hgm_run):
    return archive_state(hgm_run[0])


@pytest.fixture(scope="module")
def hgm_status(hgm_run):
    result = CliRunner().invoke(main, ["status", "--run", str(hgm_run[0]), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_hgm_run_stops_at_its_expansion_and_evaluation_limits(hgm_state, hgm_status):
    nodes, evals = hgm_state
    assert len(nodes) == 7
    assert len(evals) == 21
    assert hgm_status["expansions"] == 6
    assert hgm_status["evaluations"] == 21
    assert "--max-evals 21" in hgm_status["stop_reason"]  # recorded by the run, read back by status


def test_status_has_no_stop_reason_while_a_run_has_none_recorded(hgm_run, tmp_path):
    run = tmp_path / "copy"
    shutil.copytree(hgm_run[0], run)
    with Archive.for_run(run) as ar:
        ar.log_event("run_started", data={"pid": 1})  # resumed and running (or killed since)
    result = CliRunner().invoke(main, ["status", "--run", str(run), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output)["stop_reason"] is None


def test_hgm_run_grades_no_node_on_a_task_twice(hgm_state):
    _, evals = hgm_state
    assert len(set((n, t) for n, t, _, _ in evals)) == len(evals)


def test_hgm_run_children_are_all_valid(hgm_state):
    nodes, _ = hgm_state
    assert {s for *_, s in nodes} == {"valid"}


def test_hgm_run_resolves_exactly_the_task_the_script_fixes(hgm_state):
    _, evals = hgm_state
    slug = [r for n, t, r, _ in evals if t == SLUG]
    assert slug
    assert all(slug)
    assert not any(r for n, t, r, _ in evals if t != SLUG)


def test_hgm_run_names_its_best_agent(hgm_run, hgm_status):
    _, out = hgm_run
    assert "best agent   node" in out
    assert hgm_status["best"]["resolved"] == 1
    assert hgm_status["best"]["n"] == 3


def test_hgm_run_leaves_an_archive_that_passes_archive_check(hgm_run, hgm_state):
    # hgm_state has already asserted integrity_check() == []
    check = CliRunner().invoke(main, ["archive", "check", "--run", str(hgm_run[0])])
    assert check.exit_code == 0, check.output


def test_hgm_run_records_model_calls_each_under_its_job(hgm_run, hgm_status):
    assert hgm_status["fm_calls"] > 0
    with Archive.for_run(hgm_run[0]) as ar:
        calls = ar.fm_calls()
    assert calls
    assert all(c.job_id is not None for c in calls)


def test_a_child_carries_the_meta_agents_edit(hgm_run):
    with Archive.for_run(hgm_run[0]) as ar:
        root, child = ar.nodes()[:2]
        assert "Read the code the issue is about" in ar.diff(root.snapshot, child.snapshot)


def test_a_child_records_the_diagnosis_it_came_from(hgm_run):
    with Archive.for_run(hgm_run[0]) as ar:
        child = ar.nodes()[1]
    assert child.origin["summary"] == "the agent gave up without reading the code"


def test_a_child_keeps_its_meta_agents_trajectory_and_its_check_output(hgm_run):
    with Archive.for_run(hgm_run[0]) as ar:
        child = ar.nodes()[1]
        messages = [json.loads(line) for line in ar.blob(child.origin["trajectory"]).decode().splitlines()]
    assert messages[0]["role"] == "system"
    assert any(m["role"] == "assistant" for m in messages)
    assert child.origin["check"]["exit"] == 0
    assert child.status == "valid"


# --- DGM: generations of 3 children, staged evaluation (2 tasks, then all 3 over 0.3) -----------


@pytest.fixture(scope="module")
def dgm_run(tmp_path_factory, availability):
    return made_run(
        tmp_path_factory,
        availability,
        "dgm",
        "--mode",
        "dgm",
        "--children",
        "3",
        "--stages",
        "2",
        "--threshold",
        "0.3",
        "--max-expansions",
        "6",
    )


def test_dgm_run_makes_two_generations_of_three_children(dgm_run):
    nodes, _ = archive_state(dgm_run[0])
    assert len(nodes) == 7
    with Archive.for_run(dgm_run[0]) as ar:
        generations = [n.origin.get("generation") for n in ar.nodes()]
    assert generations == [0, 1, 1, 1, 2, 2, 2]


def test_dgm_run_grades_every_node_past_its_first_stage_on_every_task(dgm_run):
    nodes, evals = archive_state(dgm_run[0])
    per_node = {}
    for n, t, _, _ in evals:
        per_node.setdefault(n, set()).add(t)
    # staged: every node saw the first stage (2 tasks); 1/2 resolved passes 0.3, and at the top: the full set
    assert set(per_node) == {n for n, *_ in nodes}
    assert all(len(tasks_seen) == 3 for tasks_seen in per_node.values()), per_node


# --- kill and resume -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "search",
    [
        ["--mode", "hgm", "--selector", "cmp_thompson"],
        ["--mode", "hgm", "--selector", "lineage"],
        ["--mode", "dgm", "--selector", "lineage"],
        ["--recipe", "dgm"],
        ["--recipe", "gea"],
        ["--recipe", "darwinx", "--recombine", "0.5"],
    ],
    ids=["cmp_thompson", "lineage", "dgm-lineage", "dgm", "gea", "darwinx"],
)
def test_killed_and_resumed_run_equals_an_uninterrupted_one(bwrap, engine_env, tmp_path, search):
    """Under HGM's selector, under lineage in hgm and dgm mode (which also plans when to
    expand and what to evaluate, from estimates it keeps between decisions and rebuilds on
    resume) and under the dgm, gea and darwinx recipes, whose jobs carry generations, groups,
    second parents and admission decisions. From the quick seed: what is tested is the
    engine's resume, not the seed's own tests."""
    tasks, script = engine_env
    quick = quick_seed_agent(tmp_path)
    flags = [*search, "--max-expansions", "4", "--max-evals", "15", "--seed-agent", str(quick)]
    straight = tmp_path / "straight"
    evolve_ok(straight, tasks, script, *SEEDED, "--workers", "1", *flags)
    killed = tmp_path / "killed"
    cmd = evolve_cmd(
        killed,
        tasks,
        f"scripted:{script}",
        "--workers",
        "1",
        "--seed",
        "7",
        *flags,
    )
    kills = 0
    for threshold in (4, 9):  # kill twice: mid-way through the baseline and after some expansions
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if (killed / "archive.db").exists():
                with Archive.for_run(killed) as ar:
                    if len(ar.evaluations()) + len(ar.nodes()) >= threshold:
                        break
            time.sleep(0.2)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
    assert kills >= 1
    evolve_ok(killed, tasks, script, *SEEDED, "--workers", "1", *flags)
    assert archive_state(killed) == archive_state(straight)
    with Archive.for_run(killed) as ar:
        assert ar.jobs.counts()["running"] == 0
        assert ar.jobs.counts()["queued"] == 0
