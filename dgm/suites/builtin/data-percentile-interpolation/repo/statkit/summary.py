"""One-call summaries of a numeric column, as printed in the weekly report."""

from typing import Iterable

from .descriptive import mean, stdev
from .quantiles import quartiles


def describe(data: Iterable[float]) -> dict[str, float]:
    """Count, mean, standard deviation, min, quartiles and max of `data`."""
    values = [float(x) for x in data]
    if not values:
        raise ValueError("cannot describe empty data")
    q1, q2, q3 = quartiles(values)
    return {
        "count": len(values),
        "mean": mean(values),
        "std": stdev(values) if len(values) > 1 else 0.0,
        "min": min(values),
        "25%": q1,
        "50%": q2,
        "75%": q3,
        "max": max(values),
    }


def format_summary(summary: dict[str, float], digits: int = 2) -> str:
    """Render the output of `describe` as aligned ``name  value`` lines."""
    width = max(len(name) for name in summary)
    lines = []
    for name, value in summary.items():
        if name == "count":
            lines.append(f"{name:<{width}}  {int(value)}")
        else:
            lines.append(f"{name:<{width}}  {value:.{digits}f}")
    return "\n".join(lines)
