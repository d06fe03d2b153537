"""SparseVector: a fixed-size vector that stores only its nonzero entries."""

from numbers import Number
from typing import Dict, Iterable, List, Optional, Tuple


class SparseVector:
    """Vector of length `size`; entries not stored are zero.

    Zero values are never stored: assigning 0 removes the entry, and every
    operation returns vectors holding only their nonzero entries.
    """

    def __init__(self, size: int, entries: Optional[Dict[int, Number]] = None) -> None:
        if size < 0:
            raise ValueError("size must be non-negative")
        self.size = size
        self._data: Dict[int, Number] = {}
        for index, value in (entries or {}).items():
            self[index] = value

    @classmethod
    def _from_data(cls, size: int, data: Dict[int, Number]) -> "SparseVector":
        """Wrap an already-validated {index: value} dict without copying."""
        vec = cls.__new__(cls)
        vec.size = size
        vec._data = data
        return vec

    @classmethod
    def from_dense(cls, values: Iterable[Number]) -> "SparseVector":
        values = list(values)
        return cls(len(values), {i: v for i, v in enumerate(values) if v != 0})

    def _check(self, index: int) -> None:
        if not 0 <= index < self.size:
            raise IndexError(f"index {index} out of range for size {self.size}")

    def __getitem__(self, index: int) -> Number:
        self._check(index)
        return self._data.get(index, 0)

    def __setitem__(self, index: int, value: Number) -> None:
        self._check(index)
        if value == 0:
            self._data.pop(index, None)
        else:
            self._data[index] = value

    @property
    def nnz(self) -> int:
        """Number of stored (nonzero) entries."""
        return len(self._data)

    def items(self) -> List[Tuple[int, Number]]:
        """(index, value) pairs of the nonzero entries, by index."""
        return sorted(self._data.items())

    def to_dense(self) -> List[Number]:
        return [self._data.get(i, 0) for i in range(self.size)]

    def copy(self) -> "SparseVector":
        return SparseVector._from_data(self.size, dict(self._data))

    def _combine(self, other: "SparseVector", sign: int) -> "SparseVector":
        if not isinstance(other, SparseVector):
            return NotImplemented
        if other.size != self.size:
            raise ValueError(f"size mismatch: {self.size} vs {other.size}")
        data = dict(self._data)
        for index, value in other._data.items():
            data[index] = data.get(index, 0) + sign * value
        return SparseVector._from_data(self.size, data)

    def __add__(self, other: "SparseVector") -> "SparseVector":
        return self._combine(other, 1)

    def __sub__(self, other: "SparseVector") -> "SparseVector":
        return self._combine(other, -1)

    def __mul__(self, scalar: Number) -> "SparseVector":
        if not isinstance(scalar, Number):
            return NotImplemented
        return SparseVector._from_data(self.size, {i: v * scalar for i, v in self._data.items()})

    __rmul__ = __mul__

    def __neg__(self) -> "SparseVector":
        return self * -1

    def dot(self, other: "SparseVector") -> Number:
        if other.size != self.size:
            raise ValueError(f"size mismatch: {self.size} vs {other.size}")
        small, large = sorted((self._data, other._data), key=len)
        return sum(v * large[i] for i, v in small.items() if i in large)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SparseVector):
            return NotImplemented
        return self.size == other.size and self._data == other._data

    def __repr__(self) -> str:
        return f"SparseVector({self.size}, {dict(self.items())!r})"
