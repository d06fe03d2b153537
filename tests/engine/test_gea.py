"""Group-Evolving Agents (--mode gea): each expansion's parent comes with a group chosen by
performance and novelty, and its meta agent's evidence holds the group's experience."""

from __future__ import annotations

import random

from archive import Archive
from dgm.engine.policies import Allowance, Expand, GEAPolicy, InFlight, jaccard_distance
from tests.engine.conftest import evidence_keeping_script, evidence_seen, evolve_ok
from tests.engine.test_policies import TASKS, node, view


def test_the_group_adds_the_agents_that_add_most_by_performance_and_novelty():
    seed = node(1, done=TASKS, resolved=("t0", "t1"), children=3)
    same = node(2, parent=1, done=TASKS, resolved=("t0", "t1", "t2"))  # better, but like the seed
    novel = node(3, parent=1, done=TASKS, resolved=("t4", "t5"))  # solves what the seed does not
    unevaluated = node(4, parent=1)
    policy = GEAPolicy(group_size=2)
    v = view(seed, same, novel, unevaluated)
    groups = {policy._expand(v, random.Random(i)).group for i in range(30)}
    for group in groups:
        assert len(group) == 2
        assert 4 not in group
    assert any(g[0] == 1 and g[1] == 3 for g in groups)  # the seed's partner: the novel one
    assert jaccard_distance(frozenset("ab"), frozenset("ab")) == 0
    assert jaccard_distance(frozenset("a"), frozenset("b")) == 1


def test_a_lone_seed_is_a_group_of_one():
    seed = node(1, done=TASKS, resolved=("t0",))
    action = GEAPolicy(group_size=3).next(view(seed), InFlight(), Allowance(), random.Random(0))
    assert action == Expand(1, group=(1,))


def test_a_gea_run_gives_each_meta_agent_its_groups_experience(engine_env, tmp_path, bwrap):
    """The scripted meta agent copies its /evidence/summary.json into its own code, so the
    child's snapshot shows what its meta agent was given."""
    tasks, _ = engine_env
    path = evidence_keeping_script(tmp_path)
    run = tmp_path / "run"
    evolve_ok(run, tasks, path, "--mode", "gea", "--group-size", "2", "--max-expansions", "4", "--max-evals", "16")
    with Archive.for_run(run) as ar:
        expands = {j.id: j.payload for j in ar.jobs.list(kind="expand")}
        grouped = [(n, expands[n.origin["job"]]) for n in ar.nodes() if n.origin.get("job") in expands]
        seen = []
        for child, payload in grouped:
            evidence = evidence_seen(ar, child.id, tmp_path)
            members = [m["node_id"] for m in evidence.get("group", [])]
            assert members == [m for m in payload.get("group", []) if m != payload["parent"]]
            seen += evidence.get("group", [])
    assert seen, "no expansion had a group of two"
    assert all(m["code_diff"].startswith("group/") and "score" in m for m in seen)
    failed_here = [t for m in seen for t in m["tasks_this_agent_failed"]]
    assert failed_here
    assert all(t["trajectory"].startswith("group/") and not t["resolved"] for t in failed_here)
