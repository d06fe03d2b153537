"""Text reports for the nightly job."""

from __future__ import annotations

from .parser import LEVELS
from .reader import ScanResult
from .record import LogRecord


def format_record(record: LogRecord) -> str:
    """One record as text: ``timestamp LEVEL [logger] message``."""
    return f"{record.timestamp} {record.level:<8} [{record.logger}] {record.message}"


def summarize(result: ScanResult) -> dict[str, int]:
    """Number of records per level (all levels listed), plus ``malformed`` lines."""
    counts = {level: 0 for level in LEVELS}
    for record in result.records:
        counts[record.level] += 1
    counts["malformed"] = len(result.malformed)
    return counts


def render_summary(counts: dict[str, int]) -> str:
    """The summary as aligned ``name: count`` lines."""
    width = max(len(name) for name in counts)
    return "\n".join(f"{name.lower():<{width}}: {count}" for name, count in counts.items())


def errors_report(result: ScanResult) -> str:
    """All ERROR and CRITICAL records, formatted, one after another."""
    return "\n".join(format_record(r) for r in result.records if r.is_error)
