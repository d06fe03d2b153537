"""Tree queries and clade aggregates (the raw input of HGM's CMP)."""

from __future__ import annotations

import random

import pytest

from archive import Archive
from tests.helpers import write_tree


@pytest.fixture
def snap(archive: Archive, tmp_path):
    return archive.add_snapshot(write_tree(tmp_path / "seed", {"agent.py": "pass\n"}))


def random_tree(archive: Archive, snap: str, rng: random.Random, n_nodes: int) -> dict[int, int | None]:
    """Random tree with random evaluations over two benchmarks; returns id -> parent id."""
    parents: dict[int, int | None] = {}
    for _ in range(n_nodes):
        parent = rng.choice(list(parents)) if parents else None
        node = archive.add_node(parent, snap, status=rng.choice(["valid", "invalid", "pending"]))
        parents[node.id] = parent
        for t in range(rng.randint(0, 4)):
            archive.add_evaluation(node.id, rng.choice(["dev", "test"]), f"task{t}", rng.random() < 0.4)
    return parents


def brute_force(archive: Archive, parents: dict[int, int | None], benchmark=None):
    """For each node: walk every evaluation's node up to the root, counting it in each clade."""
    succ = {n: 0 for n in parents}
    fail = {n: 0 for n in parents}
    size = {n: 0 for n in parents}
    for node in parents:
        cur = node
        while cur is not None:
            size[cur] += 1
            cur = parents[cur]
    for ev in archive.evaluations(benchmark=benchmark):
        cur = ev.node_id
        while cur is not None:
            if ev.resolved:
                succ[cur] += 1
            else:
                fail[cur] += 1
            cur = parents[cur]
    return succ, fail, size


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_clade_stats_equal_brute_force(archive: Archive, snap, seed):
    parents = random_tree(archive, snap, random.Random(seed), n_nodes=120)
    for benchmark in (None, "dev", "test"):
        stats = archive.clade_stats(benchmark)
        succ, fail, size = brute_force(archive, parents, benchmark)
        assert set(stats) == set(parents)
        for node, cs in stats.items():
            assert (cs.successes, cs.failures, cs.n_nodes) == (succ[node], fail[node], size[node]), node


def test_clade_stats_do_not_mutate_anything(archive: Archive, snap):
    random_tree(archive, snap, random.Random(7), n_nodes=60)
    evals_before = archive.evaluations()
    first = archive.clade_stats()
    second = archive.clade_stats()
    assert first == second
    assert archive.evaluations() == evals_before


def test_clade_of_root_pools_everything(archive: Archive, snap):
    parents = random_tree(archive, snap, random.Random(3), n_nodes=40)
    root = next(n for n, p in parents.items() if p is None)
    evals = archive.evaluations()
    cs = archive.clade_stats()[root]
    assert cs.successes == sum(e.resolved for e in evals)
    assert cs.n == len(evals)
    assert cs.n_nodes == len(parents)


@pytest.fixture
def small_tree(archive: Archive, snap):
    """root -> a -> b, and root -> c: the ids of root, a, b, c."""
    root = archive.add_node(None, snap, "valid")
    a = archive.add_node(root.id, snap)
    b = archive.add_node(a.id, snap)
    c = archive.add_node(root.id, snap)
    return root.id, a.id, b.id, c.id


def test_lineage_runs_from_the_root_to_the_node(archive: Archive, small_tree):
    root, a, b, _ = small_tree
    assert [n.id for n in archive.lineage(b)] == [root, a, b]


def test_descendants_are_the_whole_subtree(archive: Archive, small_tree):
    root, a, b, c = small_tree
    assert archive.descendants(root) == [a, b, c]
    assert archive.descendants(a) == [b]
    assert archive.descendants(b) == []


def test_children_are_only_the_direct_ones(archive: Archive, small_tree):
    root, a, _, c = small_tree
    assert [n.id for n in archive.children(root)] == [a, c]


def test_tree_graph_has_every_edge_and_the_node_attributes(archive: Archive, small_tree, snap):
    root, a, b, c = small_tree
    g = archive.tree()
    assert set(g.edges) == {(root, a), (a, b), (root, c)}
    assert g.nodes[root]["status"] == "valid"
    assert g.nodes[b]["snapshot"] == snap


def test_add_node_with_unknown_parent_or_snapshot_fails_cleanly(archive: Archive, snap):
    from archive import ArchiveError

    with pytest.raises(ArchiveError, match="no node 99"):
        archive.add_node(99, snap)
    with pytest.raises(ArchiveError, match="no snapshot"):
        archive.add_node(None, "0" * 64)
    assert archive.nodes() == []


def test_status_changes_are_recorded(archive: Archive, snap):
    node = archive.add_node(None, snap)
    updated = archive.set_status(node.id, "invalid", reason="check failed: ImportError")
    assert updated.status == "invalid"
    assert updated.reason.startswith("check failed")
    assert [e.kind for e in archive.events()] == ["node_added", "node_status"]
    with pytest.raises(Exception, match="unknown node status"):
        archive.set_status(node.id, "great")


def test_evaluation_attempts_are_numbered(archive: Archive, snap):
    node = archive.add_node(None, snap, "valid")
    e0 = archive.add_evaluation(node.id, "dev", "t1", False, tests={"test_a": "failed"}, log=b"log text")
    e1 = archive.add_evaluation(node.id, "dev", "t1", True, duration_s=1.5, cost_usd=0.01)
    assert (e0.attempt, e1.attempt) == (0, 1)
    assert archive.blob(e0.log_blob) == b"log text"
    assert e0.tests == {"test_a": "failed"}
    assert e1.resolved is True


def test_records_are_frozen(archive: Archive, snap):
    import dataclasses

    node = archive.add_node(None, snap)
    with pytest.raises(dataclasses.FrozenInstanceError):
        node.status = "valid"  # type: ignore[misc]
