"""Binary search over sorted sequences.

These mirror `bisect.bisect_left` / `bisect.bisect_right` but take the
search bounds as keyword arguments and never mutate the sequence.
"""

from typing import Any, Optional, Sequence


def lower_bound(seq: Sequence[Any], value: Any, lo: int = 0, hi: Optional[int] = None) -> int:
    """Index of the first element >= value (len(seq) if none)."""
    if hi is None:
        hi = len(seq)
    while lo < hi:
        mid = (lo + hi) // 2
        if seq[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    return lo


def upper_bound(seq: Sequence[Any], value: Any, lo: int = 0, hi: Optional[int] = None) -> int:
    """Index of the first element > value (len(seq) if none)."""
    if hi is None:
        hi = len(seq)
    while lo < hi:
        mid = (lo + hi) // 2
        if value < seq[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo
