"""Calendar helpers: which day a reading belongs to, and runs of days."""

from datetime import date, datetime, timedelta, tzinfo
from typing import Iterator


def local_date(ts: datetime, tz: tzinfo) -> date:
    """The calendar date of the instant `ts` as seen in timezone `tz`."""
    return ts.date()


def day_range(first: date, last: date) -> Iterator[date]:
    """Every date from `first` to `last`, both included."""
    day = first
    while day <= last:
        yield day
        day += timedelta(days=1)
