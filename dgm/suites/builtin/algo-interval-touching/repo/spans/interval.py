"""The Interval value type."""

from typing import NamedTuple


class Interval(NamedTuple):
    """A closed interval [start, end] on a number line (e.g. minutes since midnight)."""

    start: int
    end: int

    @classmethod
    def of(cls, start: int, end: int) -> "Interval":
        """Build an interval, rejecting ones whose end lies before their start."""
        if end < start:
            raise ValueError(f"interval end {end} is before start {start}")
        return cls(start, end)

    @property
    def length(self) -> int:
        return self.end - self.start

    def overlaps(self, other: "Interval") -> bool:
        """True when the two closed intervals share at least one point."""
        return self.start <= other.end and other.start <= self.end

    def contains(self, point: int) -> bool:
        return self.start <= point <= self.end
