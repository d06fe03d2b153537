"""CSV input and output for tables (all values are strings; empty cells are None)."""

import csv
import io
from typing import Iterable, Optional, Sequence


def read_csv(text: str) -> tuple[list[str], list[dict]]:
    """Parse CSV text into its header and a list of row dicts."""
    reader = csv.DictReader(io.StringIO(text))
    columns = list(reader.fieldnames or [])
    rows = [{c: (row.get(c) or None) for c in columns} for row in reader]
    return columns, rows


def write_csv(columns: Sequence[str], rows: Iterable[dict], missing: Optional[str] = "") -> str:
    """Render rows as CSV text; None becomes `missing`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([missing if row.get(c) is None else row.get(c) for c in columns])
    return out.getvalue()
