import pytest

from tablekit import Table

PEOPLE = """id,name,city
1,Ada,London
2,Grace,
3,Linus,Helsinki
"""


def test_from_csv_and_records():
    t = Table.from_csv(PEOPLE)
    assert t.columns == ["id", "name", "city"]
    assert t.records()[1] == ("2", "Grace", None)


def test_to_csv_round_trip():
    t = Table.from_csv(PEOPLE)
    assert t.to_csv() == PEOPLE


def test_select_where_sort():
    t = Table.from_csv(PEOPLE)
    assert t.where(lambda r: r["city"]).select("name").records() == [("Ada",), ("Linus",)]
    assert t.sort_by("city").records()[0] == ("2", "Grace", None)


def test_bad_rows():
    with pytest.raises(ValueError):
        Table(["a", "b"], [[1]])
