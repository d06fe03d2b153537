"""Weighted graphs, shortest paths and a transit network model."""

from .graph import Graph
from .paths import NoPathError, dijkstra, shortest_path
from .transit import TransitNetwork

__all__ = ["Graph", "NoPathError", "TransitNetwork", "dijkstra", "shortest_path"]
