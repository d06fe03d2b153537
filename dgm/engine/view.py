"""A frozen picture of the archive for one decision: every node with its own and its
clade's results on the run's benchmark. Built fresh from the stored rows; nothing here
writes or mutates stored results."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from types import MappingProxyType
from collections.abc import Mapping

from archive import Archive


@dataclass(frozen=True)
class NodeStats:
    id: int
    parent_id: int | None
    status: str
    generation: int
    successes: int  # its own results on the benchmark
    failures: int
    clade_successes: int  # pooled over its whole subtree (HGM's CMP input)
    clade_failures: int
    n_children: int
    evaluated: frozenset[str]  # task ids with a recorded result

    @property
    def n(self) -> int:
        return self.successes + self.failures

    @property
    def mean(self) -> float:
        return self.successes / self.n if self.n else 0.0


@dataclass(frozen=True)
class View:
    nodes: Mapping[int, NodeStats]
    tasks: tuple[str, ...]  # the benchmark's tasks, in the run's seeded order

    @property
    def root(self) -> int:
        return min(self.nodes)

    def valid(self) -> list[int]:
        return sorted(i for i, n in self.nodes.items() if n.status == "valid")

    def evaluations(self) -> int:
        return sum(n.n for n in self.nodes.values())


def build(archive: Archive, benchmark: str, tasks: tuple[str, ...]) -> View:
    rows = archive.db.execute("SELECT id, parent_id, status, origin FROM nodes ORDER BY id").fetchall()
    own: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    evaluated: dict[int, set[str]] = defaultdict(set)
    for node_id, task_id, resolved in archive.db.execute(
        "SELECT node_id, task_id, resolved FROM evaluations WHERE benchmark = ?", [benchmark]
    ):
        own[node_id][0 if resolved else 1] += 1
        evaluated[node_id].add(task_id)
    children: dict[int, int] = defaultdict(int)
    for _, parent_id, _, _ in rows:
        if parent_id is not None:
            children[parent_id] += 1
    clade = archive.clade_stats(benchmark)
    nodes = {}
    for node_id, parent_id, status, origin in rows:
        c = clade.get(node_id)
        nodes[node_id] = NodeStats(
            node_id,
            parent_id,
            status,
            int(json.loads(origin).get("generation", 0)),
            own[node_id][0],
            own[node_id][1],
            c.successes if c else 0,
            c.failures if c else 0,
            children[node_id],
            frozenset(evaluated[node_id]),
        )
    return View(MappingProxyType(nodes), tasks)
