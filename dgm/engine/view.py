"""A frozen picture of the archive for one decision: every node with its own and its
clade's results on the run's benchmark, as the run's current utility values them
(utilities.py: under `tests`, successes are resolved counts).

`ViewCache` keeps that picture up to date as results arrive (the driver is the only
writer, so it knows every change), so a decision costs a dictionary copy, not a scan of
the archive. It is built from the stored rows once (`ViewCache.load`); `build` does the
same from scratch and the tests hold the two equal. Nothing here mutates stored results."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from archive import Archive

from .admission import ANY, Admission, AdmitAny
from .utilities import TESTS, Utility


@dataclass(frozen=True)
class NodeStats:
    id: int
    parent_id: int | None
    status: str
    generation: int
    successes: float  # its own results on the benchmark: the sum of their utilities
    failures: float  # the sum of (1 - utility)
    clade_successes: float  # pooled over its whole subtree (HGM's CMP input)
    clade_failures: float
    n_children: int
    evaluated: frozenset[str]  # task ids with a recorded result
    resolved: frozenset[str] = frozenset()  # those of them it resolved

    @property
    def n(self) -> int:
        return round(self.successes + self.failures)

    @property
    def mean(self) -> float:
        return self.successes / self.n if self.n else 0.0


@dataclass(frozen=True)
class View:
    nodes: Mapping[int, NodeStats]
    tasks: tuple[str, ...]  # the benchmark's tasks, in the run's seeded order
    admission: Admission = ANY  # which valid nodes may be parents
    counted: int | None = dataclasses.field(default=None, compare=False)  # evaluations, when the cache knows

    @property
    def root(self) -> int:
        return min(self.nodes)

    @cached_property
    def _valid(self) -> tuple[int, ...]:
        return tuple(sorted(i for i, n in self.nodes.items() if n.status == "valid"))

    def valid(self) -> list[int]:
        return list(self._valid)

    def refusal(self, node_id: int) -> str | None:
        """Why the admission rule keeps valid node `node_id` from being a parent (None: it does not)."""
        node = self.nodes[node_id]
        return self.admission.refusal(node, self.nodes[node.parent_id] if node.parent_id is not None else None)

    @cached_property
    def _parents(self) -> tuple[int, ...]:
        if isinstance(self.admission, AdmitAny):  # no per-node question to ask
            return self._valid
        return tuple(i for i in self._valid if self.refusal(i) is None)

    def parents(self) -> list[int]:
        """The valid nodes the admission rule lets be parents (all of them under `any`)."""
        return list(self._parents)

    @cached_property
    def _evaluations(self) -> int:
        return self.counted if self.counted is not None else sum(n.n for n in self.nodes.values())

    def evaluations(self) -> int:
        return self._evaluations


class ViewCache:
    """The view, kept current by the driver's own writes."""

    def __init__(self, tasks: tuple[str, ...], admission: Admission = ANY, utility: Utility = TESTS):
        self.tasks = tasks
        self.admission = admission
        self.utility = utility
        self.nodes: dict[int, NodeStats] = {}
        self.evaluations = 0  # results added: each is one evaluation, whatever its utility
        self.root: int | None = None  # the seed: the first node without a parent

    def view(self) -> View:
        return View(MappingProxyType(dict(self.nodes)), self.tasks, self.admission, self.evaluations)

    def add_node(self, node_id: int, parent_id: int | None, status: str, generation: int) -> None:
        self.nodes[node_id] = NodeStats(node_id, parent_id, status, generation, 0, 0, 0, 0, 0, frozenset())
        if parent_id is None and self.root is None:
            self.root = node_id
        if parent_id is not None:
            parent = self.nodes[parent_id]
            self.nodes[parent_id] = dataclasses.replace(parent, n_children=parent.n_children + 1)

    def set_status(self, node_id: int, status: str) -> None:
        self.nodes[node_id] = dataclasses.replace(self.nodes[node_id], status=status)

    def add_result(self, node_id: int, task: str, resolved: bool, judge: float | None = None) -> None:
        node = self.nodes[node_id]
        worth = self.utility.value(resolved, judge)
        self.evaluations += 1
        self.nodes[node_id] = dataclasses.replace(
            node,
            successes=node.successes + worth,
            failures=node.failures + (1 - worth),
            evaluated=node.evaluated | {task},
            resolved=node.resolved | {task} if resolved else node.resolved,
        )
        current: int | None = node_id
        while current is not None:  # the result joins the clade of the node and of every ancestor
            n = self.nodes[current]
            self.nodes[current] = dataclasses.replace(
                n, clade_successes=n.clade_successes + worth, clade_failures=n.clade_failures + (1 - worth)
            )
            current = n.parent_id

    @classmethod
    def load(
        cls,
        archive: Archive,
        benchmark: str,
        tasks: tuple[str, ...],
        admission: Admission = ANY,
        utility: Utility = TESTS,
    ) -> ViewCache:
        cache = cls(tasks, admission, utility)
        cache.nodes = dict(build(archive, benchmark, tasks, utility=utility).nodes)
        cache.evaluations = sum(n.n for n in cache.nodes.values())
        cache.root = min(cache.nodes, default=None)
        return cache


def build(
    archive: Archive, benchmark: str, tasks: tuple[str, ...], admission: Admission = ANY, utility: Utility = TESTS
) -> View:
    """The view from the stored rows, from scratch, valued by `utility` (a judge's score is
    joined to the evaluation of the same node, benchmark and task)."""
    rows = archive.db.execute("SELECT id, parent_id, status, origin FROM nodes ORDER BY id").fetchall()
    own: dict[int, list[float]] = {}
    evaluated: dict[int, set[str]] = {}
    passed: dict[int, set[str]] = {}
    judged = (
        {(j.node_id, j.task_id): j.score for j in archive.judgements(benchmark=benchmark)} if utility.uses_judge else {}
    )
    for node_id, task_id, resolved in archive.db.execute(
        "SELECT node_id, task_id, resolved FROM evaluations WHERE benchmark = ? ORDER BY id", [benchmark]
    ):
        worth = utility.value(bool(resolved), judged.get((node_id, task_id)))
        sums = own.setdefault(node_id, [0.0, 0.0])
        sums[0] += worth
        sums[1] += 1 - worth
        evaluated.setdefault(node_id, set()).add(task_id)
        if resolved:
            passed.setdefault(node_id, set()).add(task_id)
    children: dict[int, int] = {}
    clade = {node_id: list(own.get(node_id, (0.0, 0.0))) for node_id, *_ in rows}
    for node_id, parent_id, _, _ in reversed(rows):  # a child's id is larger than its parent's
        if parent_id is not None:
            children[parent_id] = children.get(parent_id, 0) + 1
            clade[parent_id][0] += clade[node_id][0]
            clade[parent_id][1] += clade[node_id][1]
    nodes = {}
    for node_id, parent_id, status, origin in rows:
        s, f = own.get(node_id, (0, 0))
        nodes[node_id] = NodeStats(
            node_id,
            parent_id,
            status,
            int(json.loads(origin).get("generation", 0)),
            s,
            f,
            clade[node_id][0],
            clade[node_id][1],
            children.get(node_id, 0),
            frozenset(evaluated.get(node_id, ())),
            frozenset(passed.get(node_id, ())),
        )
    return View(MappingProxyType(nodes), tasks, admission)
