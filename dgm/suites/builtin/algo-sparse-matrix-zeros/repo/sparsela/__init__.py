"""Sparse vectors and matrices backed by dictionaries."""

from .matrix import SparseMatrix
from .vector import SparseVector

__all__ = ["SparseMatrix", "SparseVector"]
