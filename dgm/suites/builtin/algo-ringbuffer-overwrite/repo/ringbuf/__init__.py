"""Fixed-capacity ring buffer and small windowed helpers built on it."""

from .buffer import RingBuffer
from .errors import BufferEmpty, BufferFull
from .window import MovingAverage, TailLog

__all__ = ["BufferEmpty", "BufferFull", "MovingAverage", "RingBuffer", "TailLog"]
