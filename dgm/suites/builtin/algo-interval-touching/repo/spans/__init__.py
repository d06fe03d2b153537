"""Interval helpers for scheduling."""

from .interval import Interval
from .merge import free_slots, merge, total_length
from .timefmt import format_interval, parse_interval

__all__ = ["Interval", "format_interval", "free_slots", "merge", "parse_interval", "total_length"]
