"""Text output of daily figures for the energy report."""

from datetime import timezone, tzinfo
from typing import Iterable

from .points import Point
from .resample import resample_daily


def daily_report(points: Iterable[Point], how: str = "sum", tz: tzinfo = timezone.utc, digits: int = 1) -> str:
    """One ``YYYY-MM-DD  value`` line per day; days without data show ``-``."""
    lines = []
    for day, value in resample_daily(points, how=how, tz=tz):
        text = "-" if value is None else f"{value:.{digits}f}"
        lines.append(f"{day.isoformat()}  {text:>10}")
    return "\n".join(lines)
