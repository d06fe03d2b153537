import pytest

from csvagg import format_table, group_by, read_csv, summarise

SALES = """region,store,amount
north,n1,10
south,s1,4
north,n2,30
south,s2,6
east,e1,7
"""


def rows():
    return read_csv(SALES, types={"amount": float})


def test_sum_by_region():
    assert group_by(rows(), "region", "amount") == {"north": 40.0, "south": 10.0, "east": 7.0}


def test_mean_min_max_count():
    r = rows()
    assert group_by(r, "region", "amount", "mean") == {"north": 20.0, "south": 5.0, "east": 7.0}
    assert group_by(r, "region", "amount", "min")["north"] == 10.0
    assert group_by(r, "region", "amount", "max")["south"] == 6.0
    assert group_by(r, "region", "amount", "count") == {"north": 2, "south": 2, "east": 1}


def test_group_by_two_columns():
    result = group_by(rows(), ["region", "store"], "amount")
    assert result[("north", "n2")] == 30.0


def test_unknown_aggregation():
    with pytest.raises(ValueError):
        group_by(rows(), "region", "amount", "median")


def test_summarise_and_format():
    out = summarise(rows(), "region", {"amount": ["sum", "count"]})
    assert out[0] == {"region": "north", "amount_sum": 40.0, "amount_count": 2}
    assert format_table(out).splitlines()[:2] == [
        "region  amount_sum  amount_count",
        "north   40.00       2",
    ]
