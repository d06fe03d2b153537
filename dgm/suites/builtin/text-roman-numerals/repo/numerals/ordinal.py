"""English ordinals: 1st, 2nd, 3rd, 4th, 11th, 21st, ..."""

from .errors import NumeralError


def ordinal_suffix(number: int) -> str:
    """The English ordinal suffix for ``number`` ("st", "nd", "rd" or "th")."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise NumeralError(f"expected an integer, got {type(number).__name__}")
    n = abs(number)
    if n % 100 in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def ordinal(number: int) -> str:
    """``number`` followed by its ordinal suffix, e.g. ``ordinal(22) == "22nd"``."""
    return f"{number}{ordinal_suffix(number)}"
