"""survey: weighting and summarising questionnaire responses."""

from .report import summarise, summary_table
from .responses import column, load_responses
from .weights import effective_sample_size, mean, weighted_mean, weighted_total

__all__ = [
    "load_responses",
    "column",
    "mean",
    "weighted_mean",
    "weighted_total",
    "effective_sample_size",
    "summarise",
    "summary_table",
]
