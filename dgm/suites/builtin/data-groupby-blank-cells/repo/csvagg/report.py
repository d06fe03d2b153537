"""Plain-text tables for aggregated rows."""

from typing import Sequence


def _cell(value, digits: int) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def format_table(rows: Sequence[dict], digits: int = 2) -> str:
    """Left-aligned text columns with a header line; None prints as blank."""
    if not rows:
        return ""
    columns = list(rows[0])
    cells = [[_cell(row.get(c), digits) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip()]
    for r in cells:
        lines.append("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())
    return "\n".join(lines)
