"""SparseMatrix: rows of SparseVectors, keeping only rows with nonzero entries."""

from numbers import Number
from typing import Dict, List, Sequence, Tuple

from .vector import SparseVector


class SparseMatrix:
    """A rows x cols matrix storing only its nonzero entries.

    Rows without any nonzero entry are not stored at all, so ``nonzero_rows()``
    lists exactly the rows that contain something.
    """

    def __init__(self, rows: int, cols: int) -> None:
        if rows < 0 or cols < 0:
            raise ValueError("dimensions must be non-negative")
        self.shape = (rows, cols)
        self._rows: Dict[int, SparseVector] = {}

    @classmethod
    def from_dense(cls, rows: Sequence[Sequence[Number]]) -> "SparseMatrix":
        n_rows = len(rows)
        n_cols = len(rows[0]) if rows else 0
        matrix = cls(n_rows, n_cols)
        for i, row in enumerate(rows):
            if len(row) != n_cols:
                raise ValueError("all rows must have the same length")
            for j, value in enumerate(row):
                matrix[i, j] = value
        return matrix

    @classmethod
    def identity(cls, n: int) -> "SparseMatrix":
        matrix = cls(n, n)
        for i in range(n):
            matrix[i, i] = 1
        return matrix

    def _check(self, i: int, j: int) -> None:
        if not (0 <= i < self.shape[0] and 0 <= j < self.shape[1]):
            raise IndexError(f"index ({i}, {j}) out of range for shape {self.shape}")

    def __getitem__(self, key: Tuple[int, int]) -> Number:
        i, j = key
        self._check(i, j)
        row = self._rows.get(i)
        return row[j] if row is not None else 0

    def __setitem__(self, key: Tuple[int, int], value: Number) -> None:
        i, j = key
        self._check(i, j)
        row = self._rows.get(i)
        if row is None:
            if value == 0:
                return
            row = self._rows[i] = SparseVector(self.shape[1])
        row[j] = value
        if row.nnz == 0:
            del self._rows[i]

    def row(self, i: int) -> SparseVector:
        """Row `i` as a new SparseVector."""
        if not 0 <= i < self.shape[0]:
            raise IndexError(f"row {i} out of range")
        row = self._rows.get(i)
        return row.copy() if row is not None else SparseVector(self.shape[1])

    @property
    def nnz(self) -> int:
        return sum(row.nnz for row in self._rows.values())

    def nonzero_rows(self) -> List[int]:
        """Indices of the rows holding at least one nonzero entry."""
        return sorted(self._rows)

    def entries(self) -> List[Tuple[int, int, Number]]:
        """(row, col, value) triples of the nonzero entries, in row-major order."""
        return [(i, j, v) for i in sorted(self._rows) for j, v in self._rows[i].items()]

    def to_dense(self) -> List[List[Number]]:
        return [self.row(i).to_dense() for i in range(self.shape[0])]

    def transpose(self) -> "SparseMatrix":
        result = SparseMatrix(self.shape[1], self.shape[0])
        for i, j, value in self.entries():
            result[j, i] = value
        return result

    def _combine(self, other: "SparseMatrix", sign: int) -> "SparseMatrix":
        if not isinstance(other, SparseMatrix):
            return NotImplemented
        if other.shape != self.shape:
            raise ValueError(f"shape mismatch: {self.shape} vs {other.shape}")
        result = SparseMatrix(*self.shape)
        for i in set(self._rows) | set(other._rows):
            mine = self._rows.get(i, SparseVector(self.shape[1]))
            theirs = other._rows.get(i, SparseVector(self.shape[1]))
            result._rows[i] = mine + theirs if sign > 0 else mine - theirs
        return result

    def __add__(self, other: "SparseMatrix") -> "SparseMatrix":
        return self._combine(other, 1)

    def __sub__(self, other: "SparseMatrix") -> "SparseMatrix":
        return self._combine(other, -1)

    def __mul__(self, scalar: Number) -> "SparseMatrix":
        if not isinstance(scalar, Number):
            return NotImplemented
        result = SparseMatrix(*self.shape)
        result._rows = {i: row * scalar for i, row in self._rows.items()}
        return result

    __rmul__ = __mul__

    def matvec(self, vector: SparseVector) -> SparseVector:
        """Matrix-vector product."""
        if vector.size != self.shape[1]:
            raise ValueError(f"cannot multiply {self.shape} matrix by vector of size {vector.size}")
        return SparseVector._from_data(self.shape[0], {i: row.dot(vector) for i, row in self._rows.items()})

    def __matmul__(self, other: "SparseMatrix") -> "SparseMatrix":
        if not isinstance(other, SparseMatrix):
            return NotImplemented
        if self.shape[1] != other.shape[0]:
            raise ValueError(f"cannot multiply {self.shape} by {other.shape}")
        result = SparseMatrix(self.shape[0], other.shape[1])
        for i, row in self._rows.items():
            acc: Dict[int, Number] = {}
            for k, a in row.items():
                other_row = other._rows.get(k)
                if other_row is None:
                    continue
                for j, b in other_row.items():
                    acc[j] = acc.get(j, 0) + a * b
            if acc:
                result._rows[i] = SparseVector._from_data(other.shape[1], acc)
        return result

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SparseMatrix):
            return NotImplemented
        return self.shape == other.shape and self._rows == other._rows

    def __repr__(self) -> str:
        return f"SparseMatrix(shape={self.shape}, nnz={self.nnz})"
