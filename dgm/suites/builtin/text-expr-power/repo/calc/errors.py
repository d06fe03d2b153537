"""Errors for calc."""


class CalcError(ValueError):
    """An expression could not be tokenized, parsed or evaluated.

    ``position`` is the 0-based offset in the expression where the problem was
    found, when known.
    """

    def __init__(self, message: str, position: int | None = None):
        self.position = position
        where = f" at position {position}" if position is not None else ""
        super().__init__(message + where)
