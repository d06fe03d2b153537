import pytest

from survey import load_responses, summarise, summary_table

CSV = """respondent,weight,q1,q2
r1,1.0,5,3
r2,2.0,4,NA
r3,1.0,3,
"""


def test_load_marks_missing_as_none():
    rows = load_responses(CSV)
    assert rows[1] == {"respondent": "r2", "weight": 2.0, "q1": 4.0, "q2": None}
    assert rows[2]["q2"] is None


def test_summary_of_fully_answered_question():
    s = summarise(load_responses(CSV), "q1")
    assert s["answered"] == 3
    assert s["mean"] == pytest.approx(4.0)
    assert s["weighted_mean"] == pytest.approx(4.0)


def test_summary_table_header():
    table = summary_table(load_responses(CSV), ["q1"])
    assert table.splitlines()[0].split() == ["question", "n", "mean", "w.mean", "n_eff"]
