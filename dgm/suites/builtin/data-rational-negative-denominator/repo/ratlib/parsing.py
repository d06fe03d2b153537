"""Parsing user input such as ``3/4``, ``-2``, ``1 1/2`` or ``0.75``."""

from .rational import Rational


def _parse_decimal(text: str) -> Rational:
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    whole, _, frac = digits.partition(".")
    if not (whole or frac) or not (whole + frac).isdigit():
        raise ValueError(f"not a number: {text!r}")
    return Rational(sign * int(whole + frac or "0"), 10 ** len(frac))


def parse(text: str) -> Rational:
    """Parse an integer, fraction, mixed number or decimal into a Rational."""
    text = text.strip()
    if not text:
        raise ValueError("empty input")
    parts = text.split()
    if len(parts) == 2:
        whole = int(parts[0])
        frac = parse(parts[1])
        if frac < 0:
            raise ValueError(f"the fractional part of a mixed number must be positive: {text!r}")
        return whole - frac if whole < 0 or parts[0].startswith("-") else whole + frac
    if len(parts) != 1:
        raise ValueError(f"cannot parse {text!r}")
    if "/" in text:
        num, _, den = text.partition("/")
        return Rational(int(num), int(den))
    return _parse_decimal(text)
