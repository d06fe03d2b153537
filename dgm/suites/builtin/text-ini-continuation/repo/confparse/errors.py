"""Exceptions for confparse."""


class ConfigError(Exception):
    """Base class for all confparse errors."""


class ParseError(ConfigError):
    """The text is not a valid configuration file."""

    def __init__(self, lineno: int, message: str):
        self.lineno = lineno
        super().__init__(f"line {lineno}: {message}")


class MissingOptionError(ConfigError, KeyError):
    """A section or option was requested that the file does not define."""
