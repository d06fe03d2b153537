"""Errors raised while reading .env files."""


class EnvFileError(ValueError):
    """A line of a .env file could not be understood."""

    def __init__(self, message: str, lineno: int | None = None):
        self.lineno = lineno
        prefix = f"line {lineno}: " if lineno is not None else ""
        super().__init__(prefix + message)
