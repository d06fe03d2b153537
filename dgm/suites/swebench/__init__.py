"""SWE-bench's official log parsers and grading, reimplemented without the `swebench` package."""

from .parsers import PARSERS, parser
from .report import Outcome, Report, grade

__all__ = ["PARSERS", "Outcome", "Report", "grade", "parser"]
