"""The parsed form of one log entry."""

from __future__ import annotations

from dataclasses import dataclass

ERROR_LEVELS = frozenset({"ERROR", "CRITICAL"})


@dataclass(frozen=True)
class LogRecord:
    """One log entry.

    ``lineno`` is the 1-based line of the file where the entry starts.
    """

    timestamp: str
    level: str
    logger: str
    message: str
    lineno: int

    @property
    def is_error(self) -> bool:
        return self.level in ERROR_LEVELS
