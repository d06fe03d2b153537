"""streamstats: one-pass statistics over sensor streams."""

from .running import RunningStats
from .sources import read_readings
from .window import sliding_max, sliding_min

__all__ = ["RunningStats", "read_readings", "sliding_max", "sliding_min"]
