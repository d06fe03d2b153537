"""Writing delimited text."""

from collections.abc import Iterable, Mapping, Sequence

from .csvline import join_line


def write_rows(rows: Iterable[Sequence], delimiter: str = ",") -> str:
    """Rows as text, one line each, with a trailing newline."""
    return "".join(join_line(row, delimiter) + "\n" for row in rows)


def write_records(records: Sequence[Mapping], fields: Sequence[str] | None = None,
                  delimiter: str = ",") -> str:
    """Dictionaries as text with a header line; ``fields`` picks and orders columns."""
    if fields is None:
        fields = list(records[0]) if records else []
    rows = [list(fields)] + [[record.get(name, "") for name in fields] for record in records]
    return write_rows(rows, delimiter)
