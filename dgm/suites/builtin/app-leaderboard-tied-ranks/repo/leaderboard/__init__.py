"""Leaderboard for the weekly puzzle contest."""

from .board import Leaderboard
from .models import Standing, Submission
from .render import render_table

__all__ = ["Leaderboard", "Standing", "Submission", "render_table"]
