"""The final rule's pick, kept current result by result: `final.best` over the whole view
after every step would cost the simulator most of its time. A node's rule score depends on
its own results alone, so only the node just changed can take or lose the lead."""

from __future__ import annotations

from collections.abc import Callable

from ..engine.view import NodeStats


class FinalPick:
    """Agrees with `final.best(view, rule)` after every `update` (same ties: more
    evaluations, then the older node)."""

    def __init__(self, score: Callable[[NodeStats], float]):
        self.score = score
        self.keys: dict[int, tuple[float, int, int]] = {}
        self.best: int | None = None

    def update(self, node: NodeStats) -> None:
        """After `node`'s results or status changed."""
        if node.status == "valid" and node.n:
            self.keys[node.id] = (self.score(node), node.n, -node.id)
        else:
            self.keys.pop(node.id, None)
        if self.best == node.id or self.best is None:
            self.best = max(self.keys, key=self.keys.__getitem__, default=None)
        elif node.id in self.keys and self.keys[node.id] > self.keys[self.best]:
            self.best = node.id
