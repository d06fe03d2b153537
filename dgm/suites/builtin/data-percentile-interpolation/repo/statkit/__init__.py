"""statkit: small descriptive-statistics helpers for report generation."""

from .descriptive import mean, stdev, variance
from .quantiles import iqr, median, percentile, quartiles
from .summary import describe, format_summary

__all__ = [
    "mean",
    "variance",
    "stdev",
    "percentile",
    "median",
    "quartiles",
    "iqr",
    "describe",
    "format_summary",
]
