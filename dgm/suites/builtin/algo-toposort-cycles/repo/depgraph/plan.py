"""Execution plans for a subset of targets."""

from typing import Hashable, Iterable, List

from .graph import DependencyGraph
from .toposort import static_order


def plan(graph: DependencyGraph, targets: Iterable[Hashable]) -> List[Hashable]:
    """Steps needed to build `targets`: the targets and their transitive
    dependencies, in a valid order. Unknown targets raise KeyError."""
    targets = list(targets)
    for target in targets:
        if target not in graph:
            raise KeyError(target)
    return static_order(graph.subgraph(graph.requirements(targets)))
