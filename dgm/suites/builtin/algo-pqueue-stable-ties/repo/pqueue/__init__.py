"""Priority queue and job scheduler."""

from .heap import PriorityQueue
from .scheduler import Job, Scheduler

__all__ = ["Job", "PriorityQueue", "Scheduler"]
