"""Plain-text rendering of histograms for terminal reports."""

from typing import Sequence


def render_bars(
    counts: Sequence[int],
    edges: Sequence[float],
    width: int = 40,
    char: str = "#",
    digits: int = 1,
) -> str:
    """One line per bin: ``[left, right) | #### count``.

    The longest bar is `width` characters; the others are scaled to it.
    """
    if len(edges) != len(counts) + 1:
        raise ValueError("need exactly one more edge than counts")
    peak = max(counts, default=0)
    labels = [f"[{edges[i]:.{digits}f}, {edges[i + 1]:.{digits}f})" for i in range(len(counts))]
    if labels:
        labels[-1] = labels[-1][:-1] + "]"
    label_width = max((len(label) for label in labels), default=0)
    lines = []
    for label, count in zip(labels, counts):
        bar = char * (round(count / peak * width) if peak else 0)
        lines.append(f"{label:<{label_width}} | {bar} {count}".rstrip())
    return "\n".join(lines)
