"""Exceptions raised by the numerals package."""


class NumeralError(ValueError):
    """Raised when a number cannot be written, or a numeral cannot be read."""
