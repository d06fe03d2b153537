"""tseries: turning raw meter readings into daily figures."""

from .calendar import day_range, local_date
from .points import Point, load_csv, parse_timestamp
from .report import daily_report
from .resample import AGGREGATIONS, resample_daily

__all__ = [
    "Point",
    "parse_timestamp",
    "load_csv",
    "local_date",
    "day_range",
    "resample_daily",
    "AGGREGATIONS",
    "daily_report",
]
