"""Text run-length format: each run is written as its decimal count followed
by the character, e.g. "aaab" <-> "3a1b".

Digits cannot be encoded in this format (they would be confused with counts).
"""

from .errors import DecodeError
from .runs import runs


def encode(text: str) -> str:
    """Encode `text`; raises ValueError if it contains digits."""
    for ch in text:
        if ch.isdigit():
            raise ValueError(f"cannot encode digit {ch!r} in text format")
    return "".join(f"{count}{ch}" for ch, count in runs(text))


def decode(data: str) -> str:
    """Decode the output of encode(); raises DecodeError on malformed input."""
    out = []
    i = 0
    while i < len(data):
        digit = data[i]
        if not digit.isdigit():
            raise DecodeError(f"expected a run length at position {i}, got {digit!r}")
        if i + 1 >= len(data):
            raise DecodeError("run length at end of input without a character")
        out.append(data[i + 1] * int(digit))
        i += 2
    return "".join(out)
