"""Row/column helpers for tables stored as lists of rows."""

from typing import Sequence

Table = list[list[float]]


def columns(table: Sequence[Sequence[float]]) -> Table:
    """Transpose a list of rows into a list of columns."""
    if not table:
        return []
    width = len(table[0])
    if any(len(row) != width for row in table):
        raise ValueError("all rows must have the same length")
    return [[float(row[j]) for row in table] for j in range(width)]


def rows(cols: Sequence[Sequence[float]]) -> Table:
    """Transpose a list of columns back into a list of rows."""
    if not cols:
        return []
    return [list(r) for r in zip(*cols)]
