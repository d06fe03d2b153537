"""Plain data objects used by the leaderboard."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Submission:
    """One score sent in by a player. `seq` is the order of arrival (injected by the caller)."""

    player: str
    score: int
    seq: int


@dataclass(frozen=True)
class Standing:
    """A row of the leaderboard."""

    rank: int
    player: str
    score: int
