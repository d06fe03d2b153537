"""Selecting records."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .parser import LEVELS
from .record import LogRecord


def min_level(records: Iterable[LogRecord], level: str) -> Iterator[LogRecord]:
    """Records at ``level`` or more severe."""
    threshold = LEVELS.index(level.upper())
    return (r for r in records if LEVELS.index(r.level) >= threshold)


def by_logger(records: Iterable[LogRecord], name: str) -> Iterator[LogRecord]:
    """Records of logger ``name`` and its children (``app`` matches ``app.db``)."""
    return (r for r in records if r.logger == name or r.logger.startswith(name + "."))
