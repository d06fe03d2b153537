"""tabular: tiny delimited-text reader and writer for our export scripts.

Handles one record per line (no embedded newlines), with fields quoted by
double quotes when they contain the delimiter or quotes.
"""

from .csvline import CsvError, join_line, split_line
from .reader import read_records, read_rows
from .writer import write_records, write_rows

__all__ = [
    "CsvError",
    "join_line",
    "read_records",
    "read_rows",
    "split_line",
    "write_records",
    "write_rows",
]
