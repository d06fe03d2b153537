"""Recognising log lines."""

from __future__ import annotations

import re

from .record import LogRecord

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

_LINE = re.compile(
    r"^(?P<timestamp>\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,6})?)"
    r"\s+(?P<level>[A-Z]+)"
    r"\s+\[(?P<logger>[^\]]+)\]"
    r"\s?(?P<message>.*)$"
)


def parse_line(line: str, lineno: int = 0) -> LogRecord | None:
    """The record that starts on ``line``, or ``None`` if it is not a log line.

    ``WARN`` and ``FATAL`` are read as ``WARNING`` and ``CRITICAL``.
    """
    match = _LINE.match(line.rstrip("\r\n"))
    if not match:
        return None
    level = {"WARN": "WARNING", "FATAL": "CRITICAL"}.get(match["level"], match["level"])
    if level not in LEVELS:
        return None
    return LogRecord(match["timestamp"], level, match["logger"], match["message"], lineno)
