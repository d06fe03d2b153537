"""Parsing and formatting of "HH:MM-HH:MM" ranges as minute intervals."""

from .interval import Interval


def _parse_clock(text: str) -> int:
    hours, _, minutes = text.strip().partition(":")
    if not hours.isdigit() or not minutes.isdigit():
        raise ValueError(f"bad time {text!r}")
    h, m = int(hours), int(minutes)
    if not (0 <= h <= 24 and 0 <= m < 60) or (h == 24 and m):
        raise ValueError(f"bad time {text!r}")
    return h * 60 + m


def parse_interval(text: str) -> Interval:
    """Parse "09:30-11:00" into Interval(570, 660)."""
    start, sep, end = text.partition("-")
    if not sep:
        raise ValueError(f"expected START-END, got {text!r}")
    return Interval.of(_parse_clock(start), _parse_clock(end))


def format_interval(interval: Interval) -> str:
    """Inverse of parse_interval."""

    def clock(minutes: int) -> str:
        return f"{minutes // 60:02d}:{minutes % 60:02d}"

    return f"{clock(interval.start)}-{clock(interval.end)}"
