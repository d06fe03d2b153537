"""Errors raised by the codecs."""


class DecodeError(ValueError):
    """The encoded data is malformed."""
