"""Tree queries over `nodes`: the graph, lineage, descendants and clade aggregates.

Nothing here writes; aggregates are computed fresh from the stored rows every time."""

from __future__ import annotations

from collections import defaultdict

import networkx as nx
import sqlite_utils

from .records import CladeStats


def graph(db: sqlite_utils.Database) -> nx.DiGraph:
    """parent -> child edges; node attributes: status, snapshot, created_at."""
    g = nx.DiGraph()
    rows = db.execute(
        """SELECT n.id, n.parent_id, n.status, s.digest, n.created_at
           FROM nodes n JOIN snapshots s ON s.id = n.snapshot_id ORDER BY n.id"""
    )
    for node_id, parent_id, status, digest, created_at in rows:
        g.add_node(node_id, status=status, snapshot=digest, created_at=created_at)
        if parent_id is not None:
            g.add_edge(parent_id, node_id)
    return g


def lineage_ids(db: sqlite_utils.Database, node_id: int) -> list[int]:
    """Ids from the root down to `node_id` (inclusive)."""
    rows = db.execute(
        """WITH RECURSIVE up(id, parent_id, depth) AS (
               SELECT id, parent_id, 0 FROM nodes WHERE id = ?
               UNION ALL
               SELECT n.id, n.parent_id, up.depth + 1 FROM nodes n JOIN up ON n.id = up.parent_id
               WHERE up.depth < 1000000
           ) SELECT id FROM up ORDER BY depth DESC""",
        [node_id],
    ).fetchall()
    return [r[0] for r in rows]


def descendant_ids(db: sqlite_utils.Database, node_id: int) -> list[int]:
    """Ids of every node below `node_id` (exclusive), in id order."""
    rows = db.execute(
        """WITH RECURSIVE down(id) AS (
               SELECT id FROM nodes WHERE parent_id = ?
               UNION SELECT n.id FROM nodes n JOIN down ON n.parent_id = down.id
           ) SELECT id FROM down ORDER BY id""",
        [node_id],
    ).fetchall()
    return [r[0] for r in rows]


def clade_stats(db: sqlite_utils.Database, benchmark: str | None = None) -> dict[int, CladeStats]:
    """Pooled successes/failures over every node's subtree, for all nodes in one pass.

    Each evaluation row (every attempt) counts once, in its node's clade and in each
    ancestor's. Optionally restricted to one benchmark."""
    parent: dict[int, int | None] = dict(db.execute("SELECT id, parent_id FROM nodes").fetchall())
    where, params = ("WHERE benchmark = ?", [benchmark]) if benchmark is not None else ("", [])
    own = {
        node_id: (succ, n - succ)
        for node_id, succ, n in db.execute(
            f"SELECT node_id, sum(resolved), count(*) FROM evaluations {where} GROUP BY node_id",
            params,
        )
    }
    children: dict[int | None, list[int]] = defaultdict(list)
    for node_id, parent_id in parent.items():
        children[parent_id].append(node_id)
    # Post-order over an explicit stack: children are summed before their parent.
    succ: dict[int, int] = {}
    fail: dict[int, int] = {}
    size: dict[int, int] = {}
    order: list[int] = []
    stack = list(children.get(None, []))
    while stack:
        node_id = stack.pop()
        order.append(node_id)
        stack.extend(children.get(node_id, ()))
    for node_id in reversed(order):
        s, f = own.get(node_id, (0, 0))
        n = 1
        for child in children.get(node_id, ()):
            s += succ[child]
            f += fail[child]
            n += size[child]
        succ[node_id], fail[node_id], size[node_id] = s, f, n
    return {i: CladeStats(i, succ[i], fail[i], size[i]) for i in order}
