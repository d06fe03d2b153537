"""A circular buffer backed by a fixed-size list."""

from typing import Any, Iterable, Iterator, List

from .errors import BufferEmpty, BufferFull


class RingBuffer:
    """FIFO buffer holding at most `capacity` items.

    With ``overwrite=True`` (the default) appending to a full buffer drops the
    oldest item to make room; with ``overwrite=False`` it raises BufferFull.
    Iteration always goes from the oldest to the newest item.
    """

    def __init__(self, capacity: int, overwrite: bool = True):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.overwrite = overwrite
        self._slots: List[Any] = [None] * capacity
        self._head = 0  # index of the oldest item
        self._size = 0

    def append(self, item: Any) -> None:
        """Add `item` as the newest element."""
        if self._size < self.capacity:
            self._slots[(self._head + self._size) % self.capacity] = item
            self._size += 1
        elif self.overwrite:
            self._slots[self._head] = item
        else:
            raise BufferFull(f"buffer of capacity {self.capacity} is full")

    def extend(self, items: Iterable[Any]) -> None:
        for item in items:
            self.append(item)

    def popleft(self) -> Any:
        """Remove and return the oldest item."""
        if not self._size:
            raise BufferEmpty("pop from an empty buffer")
        item = self._slots[self._head]
        self._slots[self._head] = None
        self._head = (self._head + 1) % self.capacity
        self._size -= 1
        return item

    def oldest(self) -> Any:
        if not self._size:
            raise BufferEmpty("buffer is empty")
        return self._slots[self._head]

    def newest(self) -> Any:
        if not self._size:
            raise BufferEmpty("buffer is empty")
        return self._slots[(self._head + self._size - 1) % self.capacity]

    def clear(self) -> None:
        self._slots = [None] * self.capacity
        self._head = 0
        self._size = 0

    @property
    def full(self) -> bool:
        return self._size == self.capacity

    def to_list(self) -> List[Any]:
        return list(self)

    def __iter__(self) -> Iterator[Any]:
        for offset in range(self._size):
            yield self._slots[(self._head + offset) % self.capacity]

    def __len__(self) -> int:
        return self._size

    def __repr__(self) -> str:
        return f"RingBuffer({self.to_list()!r}, capacity={self.capacity})"
