"""Recombination (--recombine P): with chance P an expansion also takes a second parent from
another lineage, the one resolving most of what the first does not; the meta agent gets its
code and both parents' diffs from their common ancestor; the child records both parents,
and CMP credits the clade of the first."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from archive import Archive, ArchiveError
from dgm.cli import main
from dgm.engine import evidence
from dgm.engine.policies import Expand, HGMPolicy, InFlight, complement
from dgm.engine.scheduler import Scheduler
from dgm.suites import load_suite
from tests.engine.conftest import branching_script, evolve_ok, fix_call, quick_seed_agent
from tests.engine.test_policies import TASKS, node, view

pytestmark = pytest.mark.minutes(3)  # see tests/conftest.py

SEED = node(1, done=TASKS, resolved=("t0",), children=2)
LEFT = node(2, parent=1, done=TASKS, resolved=("t0", "t1"), children=1)
LEFT_CHILD = node(4, parent=2, done=TASKS, resolved=("t0", "t1", "t2", "t3"))
RIGHT = node(3, parent=1, done=TASKS, resolved=("t0", "t4"))


def test_the_second_parent_comes_from_another_lineage_and_adds_most():
    v = view(SEED, LEFT, RIGHT, LEFT_CHILD)
    assert complement(v, 3) == 4  # t1, t2, t3: more than node 2's t1
    assert complement(v, 4) == 3  # not its ancestor 2, not the root
    assert complement(v, 2) == 3  # not its descendant 4
    assert complement(v, 1) is None  # every other node descends from the root


def test_no_second_parent_when_no_other_lineage_adds_anything():
    same = node(3, parent=1, done=TASKS, resolved=("t0",))
    assert complement(view(SEED, LEFT, same), 2) is None


@pytest.mark.parametrize("chance", [0.0, 1.0])
def test_the_scheduler_recombines_with_the_chance_given_and_the_same_seed_gives_the_same_pairs(chance):
    v = view(SEED, LEFT, RIGHT, LEFT_CHILD)
    scheduler = Scheduler(HGMPolicy(), seed=5, recombine=chance)
    actions = [scheduler.ask(v, InFlight(), decision) for decision in range(30)]
    expands = [a for a in actions if isinstance(a, Expand)]
    assert expands
    if chance == 0:
        assert all(a.second is None for a in expands)
    else:
        assert all(a.second == complement(v, a.parent) for a in expands)
        assert any(a.second is not None for a in expands)
    again = [Scheduler(HGMPolicy(), seed=5, recombine=chance).ask(v, InFlight(), d) for d in range(30)]
    assert again == actions


def test_the_archive_records_a_second_parent(tmp_path):
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "f").write_text("x")
    with Archive.for_run(tmp_path / "run", create=True) as ar:
        a = ar.add_child(None, tree)
        b = ar.add_child(a.id, tree)
        c = ar.add_child(a.id, tree, second_parent_id=b.id)
        assert ar.node(c.id).second_parent_id == b.id
        assert ar.node(b.id).second_parent_id is None
        with pytest.raises(ArchiveError, match="second parent"):
            ar.add_child(a.id, tree, second_parent_id=a.id)
        assert ar.integrity_check() == []


def test_a_recombining_run_makes_children_of_two_lineages(engine_env, tmp_path, bwrap):
    """The scripted meta agents write a branch mark into the solve prompt, and agents of the
    first branch also fix the pagination task, so the two branches resolve different tasks
    and a parent of the second has the first as its complement."""
    tasks, _ = engine_env
    fix = {"tool_calls": [fix_call("app-pagination-page-count")]}
    path = branching_script(tmp_path, {"branch-1-0": ("per_page=10", fix)})
    run = tmp_path / "run"
    flags = ("--recombine", "1", "--max-expansions", "10", "--max-evals", "36", "--workers", "1")
    evolve_ok(run, tasks, path, *flags, "--seed-agent", str(quick_seed_agent(tmp_path)))
    with Archive.for_run(run) as ar:
        both = [n for n in ar.nodes() if n.second_parent_id is not None]
        assert both, [(n.id, n.parent_id) for n in ar.nodes()]
        child = both[0]
        lineage = {n.id for n in ar.lineage(child.parent_id)}
        assert child.second_parent_id not in lineage
        payload = next(j.payload for j in ar.jobs.list(kind="expand") if j.id == child.origin["job"])
        assert payload["second"] == child.second_parent_id
        ar.materialize(child.snapshot, tmp_path / "child")
    shown = CliRunner().invoke(main, ["show", "--run", str(run), str(child.id)]).output
    assert f"second parent {child.second_parent_id}" in shown
    tree = CliRunner().invoke(main, ["tree", "--run", str(run), "--format", "dot"]).output
    assert f"n{child.second_parent_id} -> n{child.id} [style=dashed" in tree


def test_the_meta_agent_gets_the_second_parents_code_and_both_diffs_from_the_common_ancestor(tmp_path):
    def tree(name: str, text: str):
        root = tmp_path / name
        (root / "seed_agent").mkdir(parents=True)
        (root / "seed_agent" / "prompt.md").write_text(text)
        return root

    with Archive.for_run(tmp_path / "run", create=True) as ar:
        seed = ar.add_child(None, tree("a", "base\n"), status="valid")
        left = ar.add_child(seed.id, tree("b", "base\nleft\n"), status="valid")
        right = ar.add_child(seed.id, tree("c", "base\nright\n"), status="valid")
        ar.add_evaluation(right.id, "builtin:dev", "text-slug-separators", resolved=True)
        ar.add_evaluation(left.id, "builtin:dev", "text-slug-separators", resolved=False)
        suite = load_suite("builtin:dev")
        dest = evidence.build(ar, suite, left.id, "builtin:dev", tmp_path / "e", {}, second=right.id)
    section = json.loads((dest / "summary.json").read_text())["recombine"]
    assert section["second_parent"] == right.id
    assert section["common_ancestor"] == seed.id
    assert section["resolves_that_this_agent_does_not"] == ["text-slug-separators"]
    assert (dest / section["agent"] / "seed_agent" / "prompt.md").read_text() == "base\nright\n"
    assert "+right" in (dest / section["second_parent_diff"]).read_text()
    assert "+left" in (dest / section["this_agent_diff"]).read_text()
