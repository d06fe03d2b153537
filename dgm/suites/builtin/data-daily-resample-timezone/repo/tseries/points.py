"""Timestamped readings.

Timestamps are ISO 8601 strings.  They are always turned into timezone-aware
datetimes: a timestamp without an offset is taken to be UTC.
"""

import csv
import io
from datetime import datetime, timezone
from typing import NamedTuple


class Point(NamedTuple):
    ts: datetime
    value: float


def parse_timestamp(text: str) -> datetime:
    """Parse an ISO 8601 timestamp such as ``2024-03-01T23:30:00Z``."""
    ts = datetime.fromisoformat(text.strip())
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=timezone.utc)
    return ts


def load_csv(text: str, time_column: str = "time", value_column: str = "value") -> list[Point]:
    """Read readings from CSV text; rows with an empty value are skipped."""
    points = []
    for row in csv.DictReader(io.StringIO(text)):
        cell = (row.get(value_column) or "").strip()
        if not cell:
            continue
        points.append(Point(parse_timestamp(row[time_column]), float(cell)))
    return points
