"""Single-source shortest paths."""

import heapq
import itertools
from typing import Dict, Hashable, List, Tuple

from .graph import Graph


class NoPathError(LookupError):
    """The target cannot be reached from the source."""


def dijkstra(graph: Graph, source: Hashable) -> Dict[Hashable, float]:
    """Distance from `source` to every reachable node."""
    if source not in graph:
        raise KeyError(source)
    dist: Dict[Hashable, float] = {source: 0}
    tie = itertools.count()
    heap = [(0, next(tie), source)]
    done = set()
    while heap:
        d, _, node = heapq.heappop(heap)
        if node in done:
            continue
        done.add(node)
        for succ, weight in graph.neighbors(node):
            candidate = d + weight
            if succ not in dist or candidate < dist[succ]:
                dist[succ] = candidate
                heapq.heappush(heap, (candidate, next(tie), succ))
    return dist


def shortest_path(graph: Graph, source: Hashable, target: Hashable) -> Tuple[float, List[Hashable]]:
    """Return (total weight, [source, ..., target]) of a cheapest path."""
    if target not in graph:
        raise KeyError(target)
    dist = dijkstra(graph, source)
    if target not in dist:
        raise NoPathError(f"{target!r} is not reachable from {source!r}")
    # Walk back from the target, always stepping to a predecessor that lies
    # on a cheapest path (one whose distance plus the edge gives ours).
    path = [target]
    node = target
    while node != source:
        for pred, weight in graph.predecessors(node):
            if pred in dist and dist[pred] + weight == dist[node]:
                node = pred
                break
        path.append(node)
        if len(path) > len(graph):
            raise RuntimeError(f"could not reconstruct a path from {source!r} to {target!r}")
    path.reverse()
    return dist[target], path
