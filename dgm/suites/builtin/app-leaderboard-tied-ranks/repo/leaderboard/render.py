"""Text rendering of the leaderboard for the contest page."""

from .models import Standing

MEDALS = {1: "gold", 2: "silver", 3: "bronze"}


def render_table(standings: list[Standing]) -> str:
    """One line per player: '<rank>. <player> <score> [medal]'."""
    lines = []
    for row in standings:
        medal = MEDALS.get(row.rank)
        line = f"{row.rank}. {row.player} {row.score}"
        if medal:
            line += f" [{medal}]"
        lines.append(line)
    return "\n".join(lines)
