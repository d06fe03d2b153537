"""HGM's clade statistics, pinned against a brute-force recomputation after many updates."""

from __future__ import annotations

import random

from archive import Archive
from dgm.engine.view import ViewCache, build
from tests.helpers import write_tree


def test_view_clade_stats_match_brute_force_after_many_updates(tmp_path):
    rng = random.Random(42)
    tasks = tuple(f"t{i}" for i in range(6))
    with Archive(tmp_path / "a.db") as ar:
        snap = ar.add_snapshot(write_tree(tmp_path / "s", {"x": "1"}))
        parent_of = {ar.add_node(None, snap, "valid").id: None}
        cache = ViewCache(tasks)  # the engine's incremental view, fed the same updates
        cache.add_node(1, None, "valid", 0)
        results: list[tuple[int, bool]] = []
        for step in range(300):
            if rng.random() < 0.3:
                node = ar.add_node(rng.choice(list(parent_of)), snap, rng.choice(["valid", "invalid"]))
                parent_of[node.id] = node.parent_id
                cache.add_node(node.id, node.parent_id, node.status, 0)
            else:
                node_id = rng.choice(list(parent_of))
                resolved = rng.random() < 0.35
                task = rng.choice(tasks)
                ar.add_evaluation(node_id, "bench", task, resolved, attempt=None)
                cache.add_result(node_id, task, resolved)
                results.append((node_id, resolved))
            if step % 50 == 49:
                view = build(ar, "bench", tasks)
                for node_id, stats in view.nodes.items():
                    subtree = {node_id}
                    changed = True
                    while changed:
                        new = {c for c, p in parent_of.items() if p in subtree} - subtree
                        changed = bool(new)
                        subtree |= new
                    s = sum(r for n, r in results if n in subtree)
                    f = sum(not r for n, r in results if n in subtree)
                    assert (stats.clade_successes, stats.clade_failures) == (s, f), node_id
                    own = [r for n, r in results if n == node_id]
                    assert (stats.successes, stats.failures) == (sum(own), len(own) - sum(own))
                assert build(ar, "bench", tasks) == view  # computing them changed nothing
                assert cache.view() == view  # the incremental view agrees with the stored rows
                loaded = ViewCache.load(ar, "bench", tasks).view()
                # the count the cache keeps (no sum over 100k nodes per decision) is the true one
                assert cache.view().evaluations() == loaded.evaluations() == view.evaluations() == len(results)
                assert cache.root == ViewCache.load(ar, "bench", tasks).root == view.root  # kept, not searched for
