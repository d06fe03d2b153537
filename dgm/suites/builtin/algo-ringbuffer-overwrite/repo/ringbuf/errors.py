"""Exceptions raised by ring buffers."""


class BufferFull(Exception):
    """Raised when appending to a full buffer that does not overwrite."""


class BufferEmpty(Exception):
    """Raised when reading from an empty buffer."""
