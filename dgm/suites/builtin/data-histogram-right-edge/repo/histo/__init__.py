"""histo: fixed-width histograms and plain-text bar charts for log analysis."""

from .binning import bin_edges, histogram
from .render import render_bars

__all__ = ["bin_edges", "histogram", "render_bars"]
