"""Dependency graphs and topological ordering."""

from .errors import CycleError
from .graph import DependencyGraph
from .plan import plan
from .toposort import batches, static_order

__all__ = ["CycleError", "DependencyGraph", "batches", "plan", "static_order"]
