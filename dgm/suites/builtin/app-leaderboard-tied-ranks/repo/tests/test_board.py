import pytest

from leaderboard import Leaderboard, Standing, Submission, render_table


def board(*scores):
    lb = Leaderboard()
    for seq, (player, score) in enumerate(scores):
        lb.submit(Submission(player, score, seq))
    return lb


def test_keeps_best_score_per_player():
    lb = board(("ann", 10), ("ann", 30), ("ann", 20))
    assert lb.best("ann") == 30


def test_submit_reports_new_best():
    lb = Leaderboard()
    assert lb.submit(Submission("bo", 5, 0)) is True
    assert lb.submit(Submission("bo", 3, 1)) is False


def test_negative_scores_rejected():
    with pytest.raises(ValueError):
        board(("x", -1))


def test_distinct_scores_ranked_in_order():
    lb = board(("ann", 10), ("bo", 30), ("cy", 20))
    assert lb.standings() == [Standing(1, "bo", 30), Standing(2, "cy", 20), Standing(3, "ann", 10)]


def test_tied_players_share_rank_and_are_alphabetical():
    lb = board(("zed", 50), ("amy", 50))
    assert lb.standings() == [Standing(1, "amy", 50), Standing(1, "zed", 50)]


def test_top_includes_ties_at_cutoff():
    lb = board(("a", 9), ("b", 8), ("c", 8), ("d", 1))
    assert [row.player for row in lb.top(2)] == ["a", "b", "c"]


def test_render_table_with_medals():
    lb = board(("ann", 3), ("bo", 2))
    assert render_table(lb.standings()) == "1. ann 3 [gold]\n2. bo 2 [silver]"
