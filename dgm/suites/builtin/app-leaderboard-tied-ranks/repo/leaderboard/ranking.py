"""Turning best scores into ranked standings."""

from .models import Standing


def order_scores(best: dict[str, int]) -> list[tuple[str, int]]:
    """Highest score first; players on equal scores are listed alphabetically."""
    return sorted(best.items(), key=lambda item: (-item[1], item[0].lower()))


def rank_standings(best: dict[str, int]) -> list[Standing]:
    """Standard competition ranking: players with equal scores share a rank."""
    standings = []
    rank = 0
    previous = None
    for position, (player, score) in enumerate(order_scores(best), start=1):
        if score != previous:
            rank += 1
            previous = score
        standings.append(Standing(rank, player, score))
    return standings
