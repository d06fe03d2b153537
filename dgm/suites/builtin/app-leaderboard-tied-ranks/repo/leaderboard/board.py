"""The leaderboard service: keeps the best score of every player."""

from .models import Standing, Submission
from .ranking import rank_standings


class Leaderboard:
    def __init__(self):
        self._best: dict[str, int] = {}
        self._history: list[Submission] = []

    def submit(self, submission: Submission) -> bool:
        """Record a submission; returns True when it is the player's new best."""
        if submission.score < 0:
            raise ValueError("scores are never negative")
        self._history.append(submission)
        current = self._best.get(submission.player)
        if current is None or submission.score > current:
            self._best[submission.player] = submission.score
            return True
        return False

    def best(self, player: str) -> int | None:
        return self._best.get(player)

    def standings(self) -> list[Standing]:
        return rank_standings(self._best)

    def rank_of(self, player: str) -> int | None:
        for standing in self.standings():
            if standing.player == player:
                return standing.rank
        return None

    def top(self, n: int) -> list[Standing]:
        """The first `n` rows, plus anybody tied with the last of them."""
        rows = self.standings()
        if n <= 0 or not rows:
            return []
        if n >= len(rows):
            return rows
        cutoff = rows[n - 1].score
        return [row for row in rows if row.score >= cutoff]
