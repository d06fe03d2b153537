"""The Table class."""

from typing import Callable, Iterable, Sequence, Union

from .csvio import read_csv, write_csv
from .joins import hash_join


class Table:
    """Named columns and a list of rows (dicts keyed by column name)."""

    def __init__(self, columns: Sequence[str], rows: Iterable = ()):
        self.columns = list(columns)
        if len(set(self.columns)) != len(self.columns):
            raise ValueError(f"duplicate column names: {self.columns}")
        self.rows = []
        for row in rows:
            if isinstance(row, dict):
                self.rows.append({c: row.get(c) for c in self.columns})
            else:
                values = list(row)
                if len(values) != len(self.columns):
                    raise ValueError(f"row {values} does not match columns {self.columns}")
                self.rows.append(dict(zip(self.columns, values)))

    # -- construction and output -------------------------------------------
    @classmethod
    def from_csv(cls, text: str) -> "Table":
        columns, rows = read_csv(text)
        return cls(columns, rows)

    def to_csv(self) -> str:
        return write_csv(self.columns, self.rows)

    def records(self) -> list[tuple]:
        """Rows as tuples in column order (handy for comparisons)."""
        return [tuple(row[c] for c in self.columns) for row in self.rows]

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        return f"Table(columns={self.columns}, rows={len(self.rows)})"

    # -- relational operations ---------------------------------------------
    def select(self, *columns: str) -> "Table":
        missing = [c for c in columns if c not in self.columns]
        if missing:
            raise KeyError(f"no such columns: {missing}")
        return Table(columns, self.rows)

    def where(self, predicate: Callable[[dict], bool]) -> "Table":
        return Table(self.columns, [row for row in self.rows if predicate(row)])

    def sort_by(self, *columns: str, reverse: bool = False) -> "Table":
        """Stable sort; None sorts before any value."""
        def key(row):
            return tuple((row[c] is not None, row[c] or "") for c in columns)

        return Table(self.columns, sorted(self.rows, key=key, reverse=reverse))

    def join(
        self,
        other: "Table",
        on: Union[str, Sequence[str]],
        how: str = "inner",
        suffix: str = "_right",
    ) -> "Table":
        """Join with `other` on equal values of the `on` column(s).

        `how` is ``"inner"`` (only rows that match on both sides) or
        ``"left"`` (every row of this table; None in the other table's
        columns where nothing matches).

        The result has this table's columns followed by the other table's
        non-key columns; a name that already exists gets `suffix`.  Rows come
        in the order of this table, each followed by its matches in the
        other table's order.
        """
        keys = [on] if isinstance(on, str) else list(on)
        for k in keys:
            if k not in self.columns or k not in other.columns:
                raise KeyError(f"join column {k!r} must exist in both tables")
        if how not in ("inner", "left"):
            raise ValueError(f"unsupported join type {how!r}; expected 'inner' or 'left'")
        renamed = {}
        for c in other.columns:
            if c in keys:
                continue
            renamed[c] = c + suffix if c in self.columns else c
        rows = hash_join(self.rows, other.rows, keys, renamed, keep_unmatched_left=how == "left")
        return Table(self.columns + list(renamed.values()), rows)
