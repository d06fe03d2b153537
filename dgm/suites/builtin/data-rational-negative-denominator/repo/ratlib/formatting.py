"""Human-friendly output: mixed numbers and fixed decimals."""

from .rational import Rational


def to_mixed(value: Rational) -> str:
    """``7/4`` -> ``1 3/4``, ``-7/4`` -> ``-1 3/4``, ``3/4`` -> ``3/4``."""
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    if rest == 0:
        return f"{sign}{whole}"
    if whole == 0:
        return f"{sign}{rest}/{value.denominator}"
    return f"{sign}{whole} {rest}/{value.denominator}"


def to_decimal(value: Rational, places: int = 2) -> str:
    """Round half away from zero to `places` decimals, using exact integer arithmetic."""
    sign = "-" if value < 0 else ""
    scaled = abs(value.numerator) * 10**places
    q, r = divmod(scaled, value.denominator)
    if 2 * r >= value.denominator:
        q += 1
    digits = str(q).rjust(places + 1, "0")
    if places == 0:
        return f"{sign}{digits}"
    return f"{sign}{digits[:-places]}.{digits[-places:]}"
