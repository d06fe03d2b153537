"""Reading whole delimited files."""

from collections.abc import Iterable

from .csvline import CsvError, split_line


def read_rows(lines: Iterable[str], delimiter: str = ",") -> list[list[str]]:
    """All non-blank lines, split into fields."""
    rows = []
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rows.append(split_line(line, delimiter))
        except CsvError as exc:
            raise CsvError(f"line {lineno}: {exc}") from None
    return rows


def read_records(lines: Iterable[str], delimiter: str = ",") -> list[dict[str, str]]:
    """Rows as dictionaries keyed by the first (header) row.

    A row with the wrong number of fields is an error.
    """
    rows = read_rows(lines, delimiter)
    if not rows:
        return []
    header, *body = rows
    records = []
    for number, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise CsvError(f"record {number}: expected {len(header)} fields, got {len(row)}")
        records.append(dict(zip(header, row)))
    return records
