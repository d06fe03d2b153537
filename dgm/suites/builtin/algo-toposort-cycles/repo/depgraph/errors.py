"""Errors raised while ordering a dependency graph."""

from typing import Hashable, Iterable


class CycleError(ValueError):
    """The dependencies contain a cycle, so no valid order exists.

    ``nodes`` is the sorted list of every node that could not be ordered:
    the nodes on a cycle plus the nodes that depend on one, directly or
    indirectly.
    """

    def __init__(self, nodes: Iterable[Hashable]):
        self.nodes = sorted(nodes)
        super().__init__("dependency cycle among: " + ", ".join(map(str, self.nodes)))
