"""The DependencyGraph container."""

from typing import Dict, Hashable, Iterable, List, Mapping, Set


class DependencyGraph:
    """Directed graph where an edge node -> dep means "node needs dep first".

    Dependencies that were never declared themselves are added as nodes
    without dependencies.
    """

    def __init__(self) -> None:
        self._deps: Dict[Hashable, Set[Hashable]] = {}
        self._dependents: Dict[Hashable, Set[Hashable]] = {}

    @classmethod
    def from_mapping(cls, mapping: Mapping[Hashable, Iterable[Hashable]]) -> "DependencyGraph":
        graph = cls()
        for node, deps in mapping.items():
            graph.add(node, *deps)
        return graph

    def add(self, node: Hashable, *deps: Hashable) -> None:
        """Declare `node`, depending on each of `deps`."""
        self._ensure(node)
        for dep in deps:
            self._ensure(dep)
            self._deps[node].add(dep)
            self._dependents[dep].add(node)

    def _ensure(self, node: Hashable) -> None:
        if node not in self._deps:
            self._deps[node] = set()
            self._dependents[node] = set()

    def nodes(self) -> List[Hashable]:
        return list(self._deps)

    def dependencies_of(self, node: Hashable) -> Set[Hashable]:
        return set(self._deps[node])

    def dependents_of(self, node: Hashable) -> Set[Hashable]:
        return set(self._dependents[node])

    def requirements(self, targets: Iterable[Hashable]) -> Set[Hashable]:
        """The targets plus everything they depend on, transitively."""
        seen: Set[Hashable] = set()
        stack = list(targets)
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            stack.extend(self._deps[node])
        return seen

    def subgraph(self, nodes: Iterable[Hashable]) -> "DependencyGraph":
        """Graph restricted to `nodes` (edges leaving the set are dropped)."""
        keep = set(nodes)
        sub = DependencyGraph()
        for node in self._deps:
            if node in keep:
                sub.add(node, *(d for d in self._deps[node] if d in keep))
        return sub

    def __contains__(self, node: object) -> bool:
        return node in self._deps

    def __len__(self) -> int:
        return len(self._deps)
