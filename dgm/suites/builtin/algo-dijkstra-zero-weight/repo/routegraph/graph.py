"""Adjacency-list graph with weighted edges."""

from typing import Dict, Hashable, Iterable, List, Tuple

Edge = Tuple[Hashable, float]


class Graph:
    """Directed (default) or undirected graph with non-negative edge weights."""

    def __init__(self, directed: bool = True) -> None:
        self.directed = directed
        self._out: Dict[Hashable, List[Edge]] = {}
        self._in: Dict[Hashable, List[Edge]] = {}

    @classmethod
    def from_edges(cls, edges: Iterable[Tuple[Hashable, Hashable, float]], directed: bool = True) -> "Graph":
        graph = cls(directed=directed)
        for u, v, weight in edges:
            graph.add_edge(u, v, weight)
        return graph

    def add_node(self, node: Hashable) -> None:
        self._out.setdefault(node, [])
        self._in.setdefault(node, [])

    def add_edge(self, u: Hashable, v: Hashable, weight: float = 1) -> None:
        """Add an edge u -> v (and v -> u for undirected graphs)."""
        if not weight > 0:
            raise ValueError(f"edge weight must be positive, got {weight!r}")
        self._link(u, v, weight)
        if not self.directed:
            self._link(v, u, weight)

    def _link(self, u: Hashable, v: Hashable, weight: float) -> None:
        self.add_node(u)
        self.add_node(v)
        self._out[u].append((v, weight))
        self._in[v].append((u, weight))

    def neighbors(self, node: Hashable) -> List[Edge]:
        """(successor, weight) pairs of the edges leaving `node`."""
        return list(self._out[node])

    def predecessors(self, node: Hashable) -> List[Edge]:
        """(predecessor, weight) pairs of the edges entering `node`."""
        return list(self._in[node])

    def nodes(self) -> List[Hashable]:
        return list(self._out)

    def edge_count(self) -> int:
        count = sum(len(edges) for edges in self._out.values())
        return count if self.directed else count // 2

    def __contains__(self, node: object) -> bool:
        return node in self._out

    def __len__(self) -> int:
        return len(self._out)
