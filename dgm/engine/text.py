"""Agent-written text on its way to a terminal (reasons that quote a check's stderr, memory
notes, diagnoses): anything but a printable character becomes '?', so an escape sequence
an agent wrote cannot act on the user's terminal."""

from __future__ import annotations


def printable(text: str) -> str:
    return "".join(c if c.isprintable() else "?" for c in text)
