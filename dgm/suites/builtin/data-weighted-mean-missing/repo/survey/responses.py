"""Loading questionnaire exports.

Exports are CSV with one respondent per row.  Unanswered questions are empty
cells (or the literal ``NA``) and are loaded as ``None``.
"""

import csv
import io
from typing import Optional

MISSING = {"", "NA", "N/A"}


def _parse(cell: str) -> Optional[float]:
    cell = cell.strip()
    if cell.upper() in MISSING:
        return None
    return float(cell)


def load_responses(text: str) -> list[dict[str, Optional[float]]]:
    """Parse a CSV export into one dict per respondent.

    Every column except ``respondent`` is numeric; missing answers are None.
    """
    rows = []
    for record in csv.DictReader(io.StringIO(text)):
        row: dict = {}
        for name, cell in record.items():
            row[name] = cell.strip() if name == "respondent" else _parse(cell or "")
        rows.append(row)
    return rows


def column(rows: list[dict], name: str) -> list[Optional[float]]:
    """The values of one question across respondents (None where unanswered)."""
    return [row.get(name) for row in rows]
