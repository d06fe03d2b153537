"""ratlib: exact rational numbers for recipe scaling and unit ratios."""

from .formatting import to_decimal, to_mixed
from .parsing import parse
from .rational import Rational

__all__ = ["Rational", "parse", "to_mixed", "to_decimal"]
