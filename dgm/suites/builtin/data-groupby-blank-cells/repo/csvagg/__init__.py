"""csvagg: group-by aggregation over CSV exports, for quick reports."""

from .aggregate import AGGREGATIONS, group_by, summarise
from .reader import read_csv
from .report import format_table

__all__ = ["read_csv", "group_by", "summarise", "AGGREGATIONS", "format_table"]
