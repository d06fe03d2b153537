"""logscan: read application logs written by Python's ``logging`` module.

The expected line format is the one our services configure::

    %(asctime)s %(levelname)s [%(name)s] %(message)s
    2024-03-01 12:00:01,123 ERROR [app.db] connection lost

Typical use, in the nightly report job::

    result = scan_file("service.log")
    print(render_summary(summarize(result)))
    print(errors_report(result))
"""

from .filters import by_logger, min_level
from .parser import LEVELS, parse_line
from .reader import ScanResult, scan, scan_file
from .record import LogRecord
from .report import errors_report, format_record, render_summary, summarize

__all__ = [
    "LEVELS",
    "LogRecord",
    "ScanResult",
    "by_logger",
    "errors_report",
    "format_record",
    "min_level",
    "parse_line",
    "render_summary",
    "scan",
    "scan_file",
    "summarize",
]
