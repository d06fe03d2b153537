"""Conversion between integers and Roman numerals.

Only the standard (canonical) form is supported: values from 1 to 3999, written
with subtractive pairs (IV, IX, XL, XC, CD, CM) and no more than three repeats
of the same symbol.
"""

from .errors import NumeralError

MIN_VALUE = 1
MAX_VALUE = 3999

# Symbol groups, largest first. ``to_roman`` is greedy over this table.
_TABLE = [
    (1000, "M"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
]

_SYMBOLS = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def to_roman(number: int) -> str:
    """Write ``number`` as an upper-case Roman numeral.

    >>> to_roman(14)
    'XIV'
    """
    if isinstance(number, bool) or not isinstance(number, int):
        raise NumeralError(f"expected an integer, got {type(number).__name__}")
    if not MIN_VALUE <= number <= MAX_VALUE:
        raise NumeralError(f"{number} is outside {MIN_VALUE}..{MAX_VALUE}")
    parts = []
    for value, symbol in _TABLE:
        count, number = divmod(number, value)
        parts.append(symbol * count)
    return "".join(parts)


def _raw_value(text: str) -> int:
    """Value of ``text`` using the additive/subtractive rule, without validation."""
    total = 0
    for i, char in enumerate(text):
        value = _SYMBOLS[char]
        following = _SYMBOLS[text[i + 1]] if i + 1 < len(text) else 0
        total += -value if value < following else value
    return total


def from_roman(text: str) -> int:
    """Read a canonical Roman numeral (case-insensitive, surrounding blanks ignored).

    Non-canonical spellings such as ``IIII`` or ``VX`` are rejected, so that every
    accepted numeral round-trips through :func:`to_roman`.

    >>> from_roman("xiv")
    14
    """
    cleaned = text.strip().upper()
    if not cleaned:
        raise NumeralError("empty numeral")
    unknown = sorted(set(cleaned) - set(_SYMBOLS))
    if unknown:
        raise NumeralError(f"not a Roman numeral: {text!r} (unknown {''.join(unknown)!r})")
    value = _raw_value(cleaned)
    if not MIN_VALUE <= value <= MAX_VALUE or to_roman(value) != cleaned:
        raise NumeralError(f"not a canonical Roman numeral: {text!r}")
    return value


def is_roman(text: str) -> bool:
    """True if ``text`` is a canonical Roman numeral."""
    try:
        from_roman(text)
    except NumeralError:
        return False
    return True
