"""The in-memory table."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Table:
    """A header row and body rows of cell texts (already unescaped and stripped)."""

    header: list[str]
    rows: list[list[str]] = field(default_factory=list)

    @property
    def width(self) -> int:
        """Number of columns (the header decides)."""
        return len(self.header)

    def normalized_rows(self) -> list[list[str]]:
        """Body rows padded with empty cells, or cut, to the header's width."""
        return [(row + [""] * self.width)[: self.width] for row in self.rows]

    def column(self, index: int) -> list[str]:
        """All cells of column ``index``, header first."""
        return [self.header[index]] + [row[index] for row in self.normalized_rows()]
