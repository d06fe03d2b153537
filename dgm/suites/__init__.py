"""Benchmarks: the task format, suites and their loaders, and the two-phase grader."""

from .grader import Grader, Verdict
from .loaders import LOADERS, load_suite
from .suite import SPLITS, Suite
from .task import BenchmarkError, RepoSource, Task

__all__ = ["LOADERS", "SPLITS", "BenchmarkError", "Grader", "RepoSource", "Suite", "Task", "Verdict", "load_suite"]
