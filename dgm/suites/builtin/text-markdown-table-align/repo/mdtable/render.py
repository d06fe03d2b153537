"""Writing tables back as Markdown with padded, lined-up columns."""

from __future__ import annotations

from .model import Table

MIN_WIDTH = 3  # a delimiter cell needs at least "---"


def escape_cell(text: str) -> str:
    """Escape pipes so the cell text survives a round trip."""
    return text.replace("|", "\\|")


def column_widths(table: Table) -> list[int]:
    """Width of each column: its longest (escaped) cell, at least MIN_WIDTH."""
    return [
        max([MIN_WIDTH] + [len(escape_cell(cell)) for cell in table.column(i)])
        for i in range(table.width)
    ]


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def render_table(table: Table) -> str:
    """The table as Markdown: header, delimiter row, body; no trailing newline."""
    widths = column_widths(table)
    lines = [_row([escape_cell(c).ljust(w) for c, w in zip(table.header, widths)])]
    lines.append(_row(["-" * w for w in widths]))
    for row in table.normalized_rows():
        lines.append(_row([escape_cell(c).ljust(w) for c, w in zip(row, widths)]))
    return "\n".join(lines)
