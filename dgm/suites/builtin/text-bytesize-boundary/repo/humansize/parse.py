"""Parsing sizes typed by people ("10MB", "1.5 GiB", "512")."""

import re

from .units import multiplier

_SIZE = re.compile(r"^\s*(?P<number>\d+(?:\.\d*)?|\.\d+)\s*(?P<unit>[A-Za-z]*)\s*$")


class SizeError(ValueError):
    """Raised for a size string that cannot be understood."""


def parse_size(text: str) -> int:
    """Number of bytes in ``text``; the result is rounded to a whole byte.

    >>> parse_size("1.5 kB")
    1500
    >>> parse_size("2 KiB")
    2048
    """
    match = _SIZE.match(text)
    if not match:
        raise SizeError(f"not a size: {text!r}")
    try:
        factor = multiplier(match["unit"])
    except KeyError:
        raise SizeError(f"unknown unit {match['unit']!r} in {text!r}") from None
    return round(float(match["number"]) * factor)
