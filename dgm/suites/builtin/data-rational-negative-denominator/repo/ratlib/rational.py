"""An immutable exact rational number, always stored in lowest terms."""

from math import gcd
from typing import Union

IntOrRational = Union[int, "Rational"]


class Rational:
    """``numerator / denominator`` in lowest terms.

    >>> Rational(6, 8)
    Rational(3, 4)
    """

    __slots__ = ("numerator", "denominator")

    def __init__(self, numerator: int, denominator: int = 1):
        if not isinstance(numerator, int) or not isinstance(denominator, int):
            raise TypeError("numerator and denominator must be integers")
        if denominator == 0:
            raise ZeroDivisionError("denominator must not be zero")
        g = gcd(numerator, denominator)
        self.numerator = numerator // g
        self.denominator = denominator // g

    @staticmethod
    def _coerce(value: IntOrRational) -> "Rational":
        if isinstance(value, Rational):
            return value
        if isinstance(value, int):
            return Rational(value)
        return NotImplemented

    # -- arithmetic ----------------------------------------------------------
    def __add__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        return Rational(
            self.numerator * other.denominator + other.numerator * self.denominator,
            self.denominator * other.denominator,
        )

    __radd__ = __add__

    def __neg__(self):
        return Rational(-self.numerator, self.denominator)

    def __sub__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        return self + (-other)

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        return Rational(self.numerator * other.numerator, self.denominator * other.denominator)

    __rmul__ = __mul__

    def __truediv__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        if other.numerator == 0:
            raise ZeroDivisionError("division by zero")
        return Rational(self.numerator * other.denominator, self.denominator * other.numerator)

    def __rtruediv__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        return other / self

    def __abs__(self):
        return Rational(abs(self.numerator), self.denominator)

    # -- comparison ------------------------------------------------------------
    def __eq__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        return self.numerator == other.numerator and self.denominator == other.denominator

    def __hash__(self):
        return hash((self.numerator, self.denominator))

    def __lt__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        # cross-multiplying is valid because denominators are positive
        return self.numerator * other.denominator < other.numerator * self.denominator

    def __le__(self, other):
        return self == other or self < other

    def __gt__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        return other < self

    def __ge__(self, other):
        return self == other or self > other

    # -- conversion ------------------------------------------------------------
    def __float__(self):
        return self.numerator / self.denominator

    def __bool__(self):
        return self.numerator != 0

    def __repr__(self):
        return f"Rational({self.numerator}, {self.denominator})"

    def __str__(self):
        if self.denominator == 1:
            return str(self.numerator)
        return f"{self.numerator}/{self.denominator}"
