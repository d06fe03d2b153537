"""Topological ordering (Kahn's algorithm)."""

import heapq
from typing import Dict, Hashable, List

from .errors import CycleError
from .graph import DependencyGraph


def _indegrees(graph: DependencyGraph) -> Dict[Hashable, int]:
    return {node: len(graph.dependencies_of(node)) for node in graph.nodes()}


def static_order(graph: DependencyGraph) -> List[Hashable]:
    """All nodes, each one after all of its dependencies.

    Among nodes that become ready at the same time the smallest comes first,
    so the result is deterministic. Raises CycleError when the dependencies
    contain a cycle.
    """
    indegree = _indegrees(graph)
    ready = [node for node, count in indegree.items() if count == 0]
    heapq.heapify(ready)
    order: List[Hashable] = []
    while ready:
        node = heapq.heappop(ready)
        order.append(node)
        for dependent in graph.dependents_of(node):
            indegree[dependent] -= 1
            if indegree[dependent] == 0:
                heapq.heappush(ready, dependent)
    return order


def batches(graph: DependencyGraph) -> List[List[Hashable]]:
    """Split the nodes into stages that can each run in parallel.

    Every node's dependencies are in earlier stages; each stage is sorted.
    Raises CycleError when the dependencies contain a cycle.
    """
    indegree = _indegrees(graph)
    stage = sorted(node for node, count in indegree.items() if count == 0)
    stages: List[List[Hashable]] = []
    while stage:
        stages.append(stage)
        following = []
        for node in stage:
            for dependent in graph.dependents_of(node):
                indegree[dependent] -= 1
                if indegree[dependent] == 0:
                    following.append(dependent)
        stage = sorted(following)
    return stages
