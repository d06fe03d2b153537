"""Windowed helpers: a moving average and a bounded log tail."""

from typing import List, Optional

from .buffer import RingBuffer


class MovingAverage:
    """Mean of the last `window` values added."""

    def __init__(self, window: int):
        self._values = RingBuffer(window)
        self._total = 0.0

    def add(self, value: float) -> float:
        """Add a value and return the current average."""
        if self._values.full:
            self._total -= self._values.oldest()
        self._values.append(value)
        self._total += value
        return self.value

    @property
    def value(self) -> Optional[float]:
        if not len(self._values):
            return None
        return self._total / len(self._values)


class TailLog:
    """Keep the last `lines` lines written, like `tail -n`."""

    def __init__(self, lines: int = 10):
        self._lines = RingBuffer(lines)

    def write(self, text: str) -> None:
        for line in text.splitlines():
            self._lines.append(line)

    def tail(self) -> List[str]:
        return self._lines.to_list()

    def render(self) -> str:
        return "\n".join(self._lines)
