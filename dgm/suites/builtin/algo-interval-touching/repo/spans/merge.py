"""Merging sets of intervals and finding the gaps between them."""

from typing import Iterable, List

from .interval import Interval


def merge(intervals: Iterable[Interval]) -> List[Interval]:
    """Merge intervals that overlap into a sorted list of disjoint intervals.

    Intervals are closed, so two intervals sharing an endpoint overlap and are
    merged as well.
    """
    ordered = sorted(Interval(*iv) for iv in intervals)
    merged: List[Interval] = []
    for current in ordered:
        if merged and current.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = Interval(last.start, max(last.end, current.end))
        else:
            merged.append(current)
    return merged


def total_length(intervals: Iterable[Interval]) -> int:
    """Total length covered by the intervals, counting overlaps once."""
    return sum(iv.length for iv in merge(intervals))


def free_slots(busy: Iterable[Interval], within: Interval, min_length: int = 0) -> List[Interval]:
    """Gaps inside `within` that no busy interval covers, in order.

    Only gaps of at least `min_length` are returned.
    """
    slots: List[Interval] = []
    cursor = within.start
    for block in merge(busy):
        if not block.overlaps(within):
            continue
        if block.start > cursor:
            slots.append(Interval(cursor, block.start))
        cursor = max(cursor, block.end)
    if cursor < within.end:
        slots.append(Interval(cursor, within.end))
    return [slot for slot in slots if slot.length >= min_length]
