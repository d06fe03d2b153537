"""Per-question summaries for the survey dashboard."""

from typing import Optional, Sequence

from .responses import column
from .weights import effective_sample_size, mean, weighted_mean


def summarise(rows: list[dict], question: str, weight_field: str = "weight") -> dict:
    """Answer count, raw mean, weighted mean and effective sample size for `question`."""
    values = column(rows, question)
    weights = [row.get(weight_field) or 0.0 for row in rows]
    return {
        "question": question,
        "answered": sum(v is not None for v in values),
        "mean": mean(values),
        "weighted_mean": weighted_mean(values, weights),
        "n_eff": effective_sample_size(values, weights),
    }


def _fmt(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.2f}"


def summary_table(rows: list[dict], questions: Sequence[str], weight_field: str = "weight") -> str:
    """A fixed-width text table with one line per question."""
    lines = [f"{'question':<12}{'n':>5}{'mean':>8}{'w.mean':>8}{'n_eff':>8}"]
    for q in questions:
        s = summarise(rows, q, weight_field)
        lines.append(
            f"{q:<12}{s['answered']:>5}{_fmt(s['mean']):>8}{_fmt(s['weighted_mean']):>8}{_fmt(s['n_eff']):>8}"
        )
    return "\n".join(lines)
