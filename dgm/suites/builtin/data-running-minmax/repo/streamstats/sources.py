"""Reading sensor logs: one reading per line, ``#`` starts a comment."""

from typing import Iterable, Iterator


def read_readings(lines: Iterable[str]) -> Iterator[float]:
    """Yield the numeric readings of a log, skipping blanks, comments and ``nan``."""
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip()
        if not text or text.lower() == "nan":
            continue
        try:
            yield float(text)
        except ValueError:
            raise ValueError(f"line {number}: not a number: {text!r}") from None
