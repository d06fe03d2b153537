"""Reading Markdown table source."""

from __future__ import annotations

import re

from .model import Table

_DELIMITER_CELL = re.compile(r"^:?-+:?$")


class TableError(ValueError):
    """The text is not a Markdown table."""


def split_row(line: str) -> list[str]:
    """Cells of one table row; ``\\|`` is a literal pipe inside a cell.

    >>> split_row("| a | b \\\\| c |")
    ['a', 'b | c']
    """
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    cells, current, i = [], [], 0
    while i < len(text):
        if text[i] == "\\" and text[i + 1 : i + 2] == "|":
            current.append("|")
            i += 2
            continue
        if text[i] == "|":
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(text[i])
        i += 1
    cells.append("".join(current).strip())
    return cells


def parse_table(text: str) -> Table:
    """Parse the first table in ``text``: a header row, a delimiter row, body rows.

    Lines before the table are skipped; the table ends at the first line that
    does not contain a pipe.
    """
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if "|" in line), None)
    if start is None or start + 1 >= len(lines):
        raise TableError("no table found")
    header = split_row(lines[start])
    delimiter = split_row(lines[start + 1])
    if len(delimiter) != len(header) or not all(_DELIMITER_CELL.match(c) for c in delimiter):
        raise TableError(f"bad delimiter row: {lines[start + 1]!r}")
    rows = []
    for line in lines[start + 2 :]:
        if "|" not in line:
            break
        rows.append(split_row(line))
    return Table(header, rows)
