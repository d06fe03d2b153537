"""numerals: small helpers for writing numbers the way humans read them.

Used by the document generator for chapter numbers ("Chapter XIV"), copyright
years in footers ("MMXXIV") and list ordinals ("3rd edition").
"""

from .errors import NumeralError
from .ordinal import ordinal, ordinal_suffix
from .roman import from_roman, is_roman, to_roman

__all__ = [
    "NumeralError",
    "from_roman",
    "is_roman",
    "ordinal",
    "ordinal_suffix",
    "to_roman",
]
