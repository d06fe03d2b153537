"""mdtable: parse and pretty-print GitHub-flavoured Markdown tables.

Our docs linter runs :func:`format_table` on every table so that columns line
up in the Markdown source:

    | Name | Qty |            | Name  | Qty |
    |---|---|          ->     | ----- | --- |
    | apple | 3 |             | apple | 3   |
"""

from .model import Table
from .parse import TableError, parse_table
from .render import render_table


def format_table(text: str) -> str:
    """Re-render the Markdown table in ``text`` with aligned columns."""
    return render_table(parse_table(text))


__all__ = ["Table", "TableError", "format_table", "parse_table", "render_table"]
