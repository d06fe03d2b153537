"""humansize: human-readable byte sizes ("1.5 MB", "4.0 GiB") and back.

Used by the backup tool's progress lines and its ``--max-size`` option.
"""

from .format import naturalsize
from .parse import SizeError, parse_size
from .units import BINARY_UNITS, DECIMAL_UNITS

__all__ = ["BINARY_UNITS", "DECIMAL_UNITS", "SizeError", "naturalsize", "parse_size"]
