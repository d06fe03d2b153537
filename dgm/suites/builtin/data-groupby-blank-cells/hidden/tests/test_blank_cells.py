import pytest

from csvagg import format_table, group_by, read_csv, summarise

SALES = """region,store,amount,returns
north,n1,10,1
north,n2,,
north,n3,30,
south,s1,4,
south,s2,,
east,e1,,
east,e2,,
"""


def rows():
    return read_csv(SALES, types={"amount": float, "returns": int})


def test_min_and_max_skip_blanks():
    r = rows()
    assert group_by(r, "region", "amount", "min") == {"north": 10.0, "south": 4.0, "east": None}
    assert group_by(r, "region", "amount", "max") == {"north": 30.0, "south": 4.0, "east": None}


def test_mean_skips_blanks():
    assert group_by(rows(), "region", "amount", "mean") == {
        "north": pytest.approx(20.0),
        "south": pytest.approx(4.0),
        "east": None,
    }


def test_sum_and_count_skip_blanks():
    r = rows()
    assert group_by(r, "region", "amount", "sum") == {"north": 40.0, "south": 4.0, "east": 0}
    assert group_by(r, "region", "amount", "count") == {"north": 2, "south": 1, "east": 0}
    assert group_by(r, "region", "returns", "count") == {"north": 1, "south": 0, "east": 0}


def test_summarise_with_blanks():
    out = summarise(rows(), "region", {"amount": ["count", "mean", "max"], "returns": ["sum"]})
    assert out == [
        {"region": "north", "amount_count": 2, "amount_mean": 20.0, "amount_max": 30.0, "returns_sum": 1},
        {"region": "south", "amount_count": 1, "amount_mean": 4.0, "amount_max": 4.0, "returns_sum": 0},
        {"region": "east", "amount_count": 0, "amount_mean": None, "amount_max": None, "returns_sum": 0},
    ]
    table = format_table(summarise(rows(), "region", {"amount": ["count", "max"]}))
    assert [line.split() for line in table.splitlines()] == [
        ["region", "amount_count", "amount_max"],
        ["north", "2", "30.00"],
        ["south", "1", "4.00"],
        ["east", "0"],
    ]


def test_zero_is_not_missing():
    r = read_csv("k,v\na,0\na,\na,-2\n", types={"v": float})
    assert group_by(r, "k", "v", "max") == {"a": 0.0}
    assert group_by(r, "k", "v", "count") == {"a": 2}
    assert group_by(r, "k", "v", "mean") == {"a": pytest.approx(-1.0)}


def test_complete_columns_unchanged():
    r = rows()
    assert group_by(r, "region", "store", "count") == {"north": 3, "south": 2, "east": 2}
