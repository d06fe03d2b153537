"""A priority queue built on the heapq module."""

import heapq
from typing import Any, Iterator, List, Tuple


class PriorityQueue:
    """Queue that always hands out the item with the best priority.

    By default the smallest priority number is served first; pass
    ``highest_first=True`` to serve the largest first. Items that share a
    priority are served first-in, first-out. Items themselves never need to
    be comparable.
    """

    def __init__(self, highest_first: bool = False):
        self.highest_first = highest_first
        self._heap: List[Tuple[Any, Any]] = []

    def _key(self, priority: Any) -> Any:
        return -priority if self.highest_first else priority

    def push(self, item: Any, priority: Any = 0) -> None:
        """Add `item` with the given priority."""
        heapq.heappush(self._heap, (self._key(priority), item))

    def extend(self, pairs) -> None:
        """Push every (item, priority) pair from an iterable."""
        for item, priority in pairs:
            self.push(item, priority)

    def pop_with_priority(self) -> Tuple[Any, Any]:
        """Remove the next item and return it together with its priority."""
        if not self._heap:
            raise IndexError("pop from an empty priority queue")
        key, item = heapq.heappop(self._heap)
        return item, self._key(key)

    def pop(self) -> Any:
        """Remove and return the next item."""
        return self.pop_with_priority()[0]

    def peek(self) -> Any:
        """Return the next item without removing it."""
        if not self._heap:
            raise IndexError("peek at an empty priority queue")
        return self._heap[0][1]

    def snapshot(self) -> List[Tuple[Any, Any]]:
        """(item, priority) pairs in the order they would be popped."""
        return [(item, self._key(key)) for key, item in sorted(self._heap)]

    def drain(self) -> Iterator[Any]:
        """Pop items until the queue is empty."""
        while self._heap:
            yield self.pop()

    def __len__(self) -> int:
        return len(self._heap)

    def __bool__(self) -> bool:
        return bool(self._heap)
