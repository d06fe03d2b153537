"""tablekit: an in-memory table for merging small CSV data sets."""

from .csvio import read_csv, write_csv
from .table import Table

__all__ = ["Table", "read_csv", "write_csv"]
