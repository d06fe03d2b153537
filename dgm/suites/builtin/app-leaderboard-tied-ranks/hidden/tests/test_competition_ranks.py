from leaderboard import Leaderboard, Standing, Submission, render_table


def board(*scores):
    lb = Leaderboard()
    for seq, (player, score) in enumerate(scores):
        lb.submit(Submission(player, score, seq))
    return lb


def test_rank_after_tie_skips_places():
    lb = board(("ann", 50), ("bo", 40), ("cy", 40), ("dee", 30))
    assert [(row.rank, row.player) for row in lb.standings()] == [
        (1, "ann"), (2, "bo"), (2, "cy"), (4, "dee")]


def test_three_way_tie_at_the_top():
    lb = board(("a", 7), ("b", 7), ("c", 7), ("d", 6), ("e", 5), ("f", 5), ("g", 1))
    assert [row.rank for row in lb.standings()] == [1, 1, 1, 4, 5, 5, 7]
    assert lb.rank_of("g") == 7
    assert lb.rank_of("e") == 5


def test_medals_follow_competition_ranks():
    lb = board(("ann", 50), ("bo", 50), ("cy", 50), ("dee", 30))
    text = render_table(lb.standings())
    assert text.splitlines() == [
        "1. ann 50 [gold]", "1. bo 50 [gold]", "1. cy 50 [gold]", "4. dee 30"]


def test_no_ties_ranks_are_positions():
    lb = board(("a", 4), ("b", 3), ("c", 2), ("d", 1))
    assert [row.rank for row in lb.standings()] == [1, 2, 3, 4]
    assert lb.rank_of("missing") is None


def test_top_keeps_rows_and_ranks():
    lb = board(("a", 9), ("b", 8), ("c", 8), ("d", 1))
    assert lb.top(3) == [Standing(1, "a", 9), Standing(2, "b", 8), Standing(2, "c", 8)]
