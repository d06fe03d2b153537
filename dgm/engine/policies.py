"""Policies: given the archive's view and what is in flight, the next job to run.

    hgm  asynchronous, no generations: expand when n_evals ** alpha >= n_nodes - 1 +
         pending expansions, else evaluate; parents by CMP Thompson sampling, evaluation
         targets by Thompson sampling over each node's own results.
    dgm  generations of k children; parents by DGM's rule; staged evaluation.
    gea  hgm's schedule; each expansion's meta agent gets its group's experience (GEA).

A selector that is a `Planner` (lineage) plans hgm's and gea's steps instead of the
n_evals ** alpha rule and the Thompson evaluation target. Under dgm it keeps the
generations and the first stage of every new node, and decides the rest: what to
evaluate beyond the first stage, and when the next generation starts.

The seed is evaluated first (the first stage in dgm mode, every task in hgm mode), so
every later comparison has a baseline. Parents come from `view.parents()`: the valid nodes
the run's admission rule admits (admission.py); evaluations go to every valid node."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import ClassVar, Protocol, runtime_checkable

import numpy as np

from .lineage import Plan
from .selectors import Selector, make_selector, thompson
from .view import View


@dataclass(frozen=True)
class Expand:
    parent: int
    generation: int = 0
    group: tuple[int, ...] = ()  # gea: the parent's group, whose experience its meta agent gets
    second: int | None = None  # --recombine: a second parent from another lineage, for one child of both


@dataclass(frozen=True)
class Evaluate:
    node: int
    task: str


Action = Expand | Evaluate


@dataclass(frozen=True)
class InFlight:
    expands: tuple[Expand, ...] = ()
    evaluations: frozenset[tuple[int, str]] = frozenset()

    def busy(self) -> dict[int, int]:
        """Evaluations in flight per node."""
        counts: dict[int, int] = {}
        for node, _ in self.evaluations:
            counts[node] = counts.get(node, 0) + 1
        return counts


@dataclass(frozen=True)
class Allowance:
    """What the run's budgets still allow."""

    expand: bool = True
    evaluate: bool = True
    cooling: bool = False  # the cool-down phase: no more expansions, spend evaluations on the best


@runtime_checkable
class Planner(Protocol):
    """A selector that also plans an asynchronous run: whether to expand (and whom) or
    evaluate (and whom) next. hgm and gea ask it first; a plan it leaves empty, or one the
    budgets forbid, falls back to their own rule."""

    def plan(self, view: View, flight: InFlight, rng: random.Random) -> Plan: ...


class Policy(Protocol):
    name: ClassVar[str]
    summary: ClassVar[str]  # one line for --help

    def next(self, view: View, flight: InFlight, allow: Allowance, rng: random.Random) -> Action | None:
        """The next job, or None to wait for in-flight work (or when nothing is left)."""


def _open_tasks(view: View, node: int, flight: InFlight, limit: int | None = None) -> list[str]:
    tasks = view.tasks if limit is None else view.tasks[:limit]
    done = view.nodes[node].evaluated
    return [t for t in tasks if t not in done and (node, t) not in flight.evaluations]


def _planned_evaluation(view: View, flight: InFlight, plan: Plan) -> Evaluate | None:
    """The plan's evaluation on the node's first open task; None when it plans none or the
    node has no task left."""
    if plan.evaluate is None:
        return None
    open_tasks = _open_tasks(view, plan.evaluate, flight)
    return Evaluate(plan.evaluate, open_tasks[0]) if open_tasks else None


@dataclass
class HGMPolicy:
    name: ClassVar[str] = "hgm"
    summary: ClassVar[str] = "asynchronous, parents by clade metaproductivity (HGM)"
    default_selector: ClassVar[str] = "cmp_thompson"
    alpha: float = 0.6
    selector: Selector = field(default_factory=lambda: make_selector("cmp_thompson"))

    def _expand(self, view: View, rng: random.Random) -> Expand:
        return self._expand_from(view, self.selector.select(view, view.parents(), 1, rng)[0])

    def _expand_from(self, view: View, parent: int) -> Expand:
        return Expand(parent)

    def next(self, view: View, flight: InFlight, allow: Allowance, rng: random.Random) -> Action | None:
        root = view.root
        if allow.evaluate and _open_tasks(view, root, flight):
            return Evaluate(root, _open_tasks(view, root, flight)[0])
        if len(view.nodes[root].evaluated) < len(view.tasks):
            return None  # the baseline is still being measured
        if isinstance(self.selector, Planner) and not allow.cooling:  # the selector plans the run (lineage)
            plan = self.selector.plan(view, flight, rng)
            if plan.expand is not None and allow.expand:
                return self._expand_from(view, plan.expand)
            evaluate = _planned_evaluation(view, flight, plan) if allow.evaluate else None
            if evaluate is not None:
                return evaluate
        nodes = len(view.nodes)
        want_expand = view.evaluations() ** self.alpha >= nodes - 1 + len(flight.expands)
        if allow.expand and not allow.cooling and want_expand:
            return self._expand(view, rng)
        if allow.evaluate:
            target = self._evaluation_target(view, flight, rng, allow.cooling)
            if target:
                return target
        if allow.expand and not allow.cooling:
            return self._expand(view, rng)
        return None

    @staticmethod
    def _evaluation_target(view: View, flight: InFlight, rng: random.Random, cooling: bool) -> Evaluate | None:
        busy = flight.busy()
        total = len(view.tasks)
        open_nodes = [i for i in view.valid() if len(view.nodes[i].evaluated) + busy.get(i, 0) < total]
        if not open_nodes:
            return None
        if cooling:  # spend what is left on the nodes that look best
            node = max(open_nodes, key=lambda i: (view.nodes[i].mean, view.nodes[i].n, -i))
        else:
            s = np.fromiter((view.nodes[i].successes for i in open_nodes), dtype=float, count=len(open_nodes))
            f = np.fromiter((view.nodes[i].failures for i in open_nodes), dtype=float, count=len(open_nodes))
            node = open_nodes[thompson(s, f, 1, rng)[0]]
        return Evaluate(node, _open_tasks(view, node, flight)[0])


@dataclass
class DGMPolicy:
    """Generations of `children` expansions. Each new node is evaluated in stages: the
    first `stages[0]` tasks; the next stage only if its resolve rate reached `threshold`;
    the full set only for nodes within `top_margin` of the best rate at that stage.
    With a Planner selector (lineage), every new node gets the first stage, and the
    planner's evaluations replace the later stages: a generation is finished when the
    plan asks for an expansion."""

    name: ClassVar[str] = "dgm"
    summary: ClassVar[str] = "generations of children, staged evaluation (DGM)"
    default_selector: ClassVar[str] = "score_child_prop"
    children: int = 4
    stages: tuple[int, ...] = (10, 25)
    threshold: float = 0.4
    top_margin: float = 0.1
    selector: Selector = field(default_factory=lambda: make_selector("score_child_prop"))

    def _limit(self, view: View, node: int) -> int:
        """How many of the run's tasks this node has earned evaluation on so far."""
        sizes = [min(s, len(view.tasks)) for s in self.stages] + [len(view.tasks)]
        stats = view.nodes[node]
        limit = sizes[0]
        for stage, size in enumerate(sizes[1:], start=1):
            if len(stats.evaluated) < limit:
                return limit
            rate = stats.mean
            if stage < len(sizes) - 1 and rate < self.threshold:
                return limit
            if stage == len(sizes) - 1:
                peers = [n.mean for n in view.nodes.values() if len(n.evaluated) >= limit and n.status == "valid"]
                if peers and rate < max(peers) - self.top_margin:
                    return limit
            limit = size
        return limit

    def next(self, view: View, flight: InFlight, allow: Allowance, rng: random.Random) -> Action | None:
        generation = max(n.generation for n in view.nodes.values())
        members = [i for i, n in view.nodes.items() if n.generation == generation]
        can_expand = allow.expand and not allow.cooling
        if generation >= 1 and can_expand:  # finish making this generation's children first
            started = len(members) + sum(1 for e in flight.expands if e.generation == generation)
            if started < self.children:
                return Expand(self.selector.select(view, _parents(view, generation), 1, rng)[0], generation)
        planned = isinstance(self.selector, Planner) and not allow.cooling
        first = min(self.stages[0], len(view.tasks))
        if allow.evaluate:
            for node in sorted(i for i in members if view.nodes[i].status == "valid"):
                open_tasks = _open_tasks(view, node, flight, first if planned else self._limit(view, node))
                if open_tasks:
                    return Evaluate(node, open_tasks[0])
        unfinished = any(e.generation == generation for e in flight.expands) or any(
            node in members and (not planned or len(view.nodes[node].evaluated) < first)
            for node, _ in flight.evaluations
        )  # under a plan, only first stages hold the generation: the plan's own evaluations do not
        if unfinished:
            return None  # the generation is not finished yet
        if planned:  # the planner decides what else is evaluated, and when the next generation starts
            plan = self.selector.plan(view, flight, rng)
            evaluate = _planned_evaluation(view, flight, plan) if allow.evaluate else None
            if evaluate is not None:
                return evaluate
            if not can_expand:
                return HGMPolicy._evaluation_target(view, flight, rng, False) if allow.evaluate else None
        started = sum(1 for e in flight.expands if e.generation == generation + 1)
        if can_expand and started < self.children:
            return Expand(self.selector.select(view, _parents(view, generation + 1), 1, rng)[0], generation + 1)
        return None


def _parents(view: View, generation: int) -> list[int]:
    """Parents for a generation: nodes the admission rule lets be parents, made before it."""
    return [i for i in view.parents() if view.nodes[i].generation < generation]


def jaccard_distance(a: frozenset[str], b: frozenset[str]) -> float:
    return 1.0 - len(a & b) / len(a | b) if a | b else 0.0


@dataclass
class GEAPolicy(HGMPolicy):
    """HGM's schedule, with Group-Evolving Agents' unit: each expansion's parent comes with
    a group of `group_size` agents (itself and the admitted agents that add most, by
    performance plus novelty: the mean Jaccard distance of what they resolve to what the
    group already resolves), and its meta agent gets the whole group's experience."""

    name: ClassVar[str] = "gea"
    summary: ClassVar[str] = "HGM's schedule; each meta agent learns from a group of K agents (GEA, --group-size)"
    group_size: int = 3

    def _expand_from(self, view: View, parent: int) -> Expand:
        group = [parent]
        others = [i for i in view.parents() if i != parent and view.nodes[i].n]
        while others and len(group) < self.group_size:

            def gain(i: int) -> tuple[float, int]:
                novelty = sum(jaccard_distance(view.nodes[i].resolved, view.nodes[g].resolved) for g in group)
                return view.nodes[i].mean + novelty / len(group), -i

            best = max(others, key=gain)
            group.append(best)
            others.remove(best)
        return Expand(parent, group=tuple(group))


def complement(view: View, first: int) -> int | None:
    """The second parent for `first` (--recombine): an admitted node of another lineage
    (neither its ancestor nor its descendant) that resolves most of what `first` does not,
    then the better one; None when no other lineage resolves anything `first` does not."""
    related = {first}
    node: int | None = first
    while node is not None:  # its ancestors
        related.add(node)
        node = view.nodes[node].parent_id
    others = [i for i in view.parents() if i not in related and not _descends(view, i, first)]
    gains = {i: len(view.nodes[i].resolved - view.nodes[first].resolved) for i in others}
    ranked = sorted((i for i in others if gains[i]), key=lambda i: (-gains[i], -view.nodes[i].mean, i))
    return ranked[0] if ranked else None


def _descends(view: View, node: int, ancestor: int) -> bool:
    current = view.nodes[node].parent_id
    while current is not None:
        if current == ancestor:
            return True
        current = view.nodes[current].parent_id
    return False


POLICIES: dict[str, type] = {p.name: p for p in (HGMPolicy, DGMPolicy, GEAPolicy)}
