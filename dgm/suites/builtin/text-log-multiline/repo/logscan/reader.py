"""Reading whole logs."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .parser import parse_line
from .record import LogRecord


@dataclass
class ScanResult:
    """The records of a log, and the line numbers that could not be read."""

    records: list[LogRecord] = field(default_factory=list)
    malformed: list[int] = field(default_factory=list)


def scan(lines: Iterable[str]) -> ScanResult:
    """Parse ``lines`` (with or without line endings); blank lines are skipped."""
    result = ScanResult()
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = parse_line(line, lineno)
        if record is None:
            result.malformed.append(lineno)
        else:
            result.records.append(record)
    return result


def scan_file(path: str | os.PathLike, encoding: str = "utf-8") -> ScanResult:
    """Scan the log file at ``path``; undecodable bytes are replaced."""
    with Path(path).open(encoding=encoding, errors="replace") as handle:
        return scan(handle)
