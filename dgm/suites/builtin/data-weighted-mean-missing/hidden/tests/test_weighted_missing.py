import pytest

from survey import load_responses, summarise, summary_table, weighted_mean

CSV = """respondent,weight,q1,q2,q3
r1,1.0,5,3,
r2,2.0,4,NA,
r3,1.0,3,,
r4,0.5,2,1,NA
"""


def test_missing_values_do_not_count():
    assert weighted_mean([4, None, 2], [1, 2, 1]) == pytest.approx(3.0)
    assert weighted_mean([None, 10, None, 20], [5, 1, 7, 3]) == pytest.approx(17.5)


def test_same_as_dropping_missing_respondents():
    values = [3.5, None, 1.0, 4.0, None, 2.5]
    weights = [0.4, 1.7, 2.0, 0.9, 3.3, 1.1]
    kept = [(v, w) for v, w in zip(values, weights) if v is not None]
    expected = weighted_mean([v for v, _ in kept], [w for _, w in kept])
    assert weighted_mean(values, weights) == pytest.approx(expected)
    assert expected == pytest.approx((1.4 + 2.0 + 3.6 + 2.75) / 4.4)


def test_summary_of_partly_answered_question():
    s = summarise(load_responses(CSV), "q2")
    assert s["answered"] == 2
    assert s["mean"] == pytest.approx(2.0)
    assert s["weighted_mean"] == pytest.approx(3.5 / 1.5)


def test_summary_table_with_missing_answers():
    lines = summary_table(load_responses(CSV), ["q1", "q2", "q3"]).splitlines()
    assert lines[1].split() == ["q1", "4", "3.50", "3.78", "3.24"]
    assert lines[2].split() == ["q2", "2", "2.00", "2.33", "1.80"]
    assert lines[3].split() == ["q3", "0", "-", "-", "0.00"]


def test_nobody_answered():
    assert weighted_mean([None, None], [1, 2]) is None


def test_complete_data_unchanged():
    assert weighted_mean([2, 4, 6], [3, 1, 1]) == pytest.approx(3.2)
