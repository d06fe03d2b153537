"""Admission rules: under preserve_extend a child is a parent only once, on the tasks both
it and its parent were evaluated on, it keeps what its parent resolved (up to the
tolerance) and resolves one task more; the policies expand only admitted nodes; evaluations
still go to every valid node, so a child can earn admission."""

from __future__ import annotations

import random

import pytest

from dgm.engine.admission import ANY, AdmissionError, PreserveExtend, make_admission
from dgm.engine.policies import Allowance, DGMPolicy, Evaluate, Expand, HGMPolicy, InFlight
from tests.engine.test_policies import TASKS, node, view

PE = PreserveExtend()
SEED = node(1, done=TASKS, resolved=("t0", "t1"), children=1)


@pytest.mark.parametrize(
    ("done", "resolved", "tolerance", "admitted"),
    [
        (("t0", "t1", "t2"), ("t0", "t1", "t2"), 0, True),  # keeps both, adds t2
        (("t0", "t1"), ("t0", "t1"), 0, False),  # keeps both, adds nothing
        (("t0", "t2"), ("t2",), 0, False),  # adds t2 but lost t0
        (("t0", "t2"), ("t2",), 1, True),  # ... within a tolerance of 1
        (("t2",), ("t2",), 0, True),  # only a shared task it adds: nothing lost on what both ran
        ((), (), 0, False),  # not evaluated: nothing shown yet
    ],
)
def test_preserve_extend_on_the_tasks_both_were_evaluated_on(done, resolved, tolerance, admitted):
    child = node(2, parent=1, done=done, resolved=resolved)
    refusal = PreserveExtend(tolerance).refusal(child, SEED)
    assert (refusal is None) == admitted, refusal


def test_the_reason_names_the_lost_tasks_and_the_parent():
    child = node(2, parent=1, done=("t0", "t1", "t2"), resolved=("t2",))
    assert PE.refusal(child, SEED) == "preserve_extend: it fails 2 task(s) its parent 1 resolved (t0, t1); tolerance 0"


def test_the_root_and_any_rule_admit_every_valid_node():
    child = node(2, parent=1, done=("t0",))
    assert PE.refusal(SEED, None) is None
    assert view(SEED, child).parents() == [1, 2]
    assert view(SEED, child, admission=PE).parents() == [1]


@pytest.mark.parametrize("policy", [HGMPolicy(), DGMPolicy(children=1, stages=(2,))])
def test_policies_expand_only_admitted_nodes(policy):
    regressed = node(2, parent=1, done=TASKS, resolved=("t1", "t2", "t3"), generation=1)  # lost t0
    v = view(SEED, regressed, admission=PE)
    actions = [policy.next(v, InFlight(), Allowance(), random.Random(i)) for i in range(40)]
    assert {a.parent for a in actions if isinstance(a, Expand)} == {1}
    under_any = [policy.next(view(SEED, regressed), InFlight(), Allowance(), random.Random(i)) for i in range(40)]
    assert {a.parent for a in under_any if isinstance(a, Expand)} == {1, 2}


def test_a_node_not_admitted_is_still_evaluated_so_it_can_earn_admission():
    child = node(2, parent=1, done=("t0",), resolved=("t0",), generation=1)
    action = HGMPolicy().next(view(SEED, child, admission=PE), InFlight(), Allowance(expand=False), random.Random(0))
    assert action == Evaluate(2, "t1")


@pytest.mark.parametrize(
    ("spec", "message"),
    [("greedy", "no such rule"), ("any:2", "takes no argument"), ("preserve_extend:-1", "whole number")],
)
def test_bad_admission_specs_are_named(spec, message):
    with pytest.raises(AdmissionError, match=message):
        make_admission(spec)


def test_specs():
    assert make_admission("any") is not None
    assert make_admission("any") == ANY
    assert make_admission("preserve_extend") == PreserveExtend(0)
    assert make_admission("preserve_extend:2") == PreserveExtend(2)


def test_a_run_under_preserve_extend_expands_only_admitted_agents_and_show_says_why(engine_env, tmp_path, bwrap):
    """The scripted meta agent's children solve what the seed solves and nothing more, so
    none is admitted: every expansion is the seed's, and `show` gives the reason."""
    from click.testing import CliRunner

    from archive import Archive
    from dgm.cli import main
    from tests.engine.conftest import evolve_ok

    tasks, script = engine_env
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--admission", "preserve_extend", "--max-expansions", "3", "--max-evals", "12")
    with Archive.for_run(run) as ar:
        children = [n for n in ar.nodes() if n.parent_id is not None]
        assert ar.run_config()["admission"] == "preserve_extend"
    assert len(children) == 3
    assert {n.parent_id for n in children} == {1}
    for child in children:
        shown = CliRunner().invoke(main, ["show", "--run", str(run), str(child.id)]).output
        assert "admission    not a parent: preserve_extend: " in shown
        assert "its parent 1 did not" in shown
    assert "admission" not in CliRunner().invoke(main, ["show", "--run", str(run), "1"]).output
    again = CliRunner().invoke(main, ["evolve", "--run", str(run), "--admission", "any", "--max-evals", "13"])
    assert again.exit_code != 0
    assert "admission" in again.output


def test_simulate_takes_an_admission_rule():
    import json

    from click.testing import CliRunner

    from dgm.cli import main

    args = ["simulate", "--compare", "cmp_thompson", "--seeds", "2", "--budget", "80", "--workers", "1", "--json"]
    out = CliRunner().invoke(main, [*args, "--admission", "preserve_extend:1"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["admission"] == "preserve_extend:1"
    bad = CliRunner().invoke(main, [*args, "--admission", "strict"])
    assert bad.exit_code != 0
    assert "no such rule" in bad.output
