import pytest

from tablekit import Table

STOCK = Table(["sku", "name", "qty"], [["A1", "bolt", 100], ["B2", "nut", 250], ["C3", "washer", 75]])
SALES = Table(["sku", "sold"], [["B2", 20], ["A1", 5], ["A1", 7], ["D4", 3]])


def test_inner_join():
    t = STOCK.join(SALES, on="sku")
    assert t.columns == ["sku", "name", "qty", "sold"]
    assert t.records() == [("A1", "bolt", 100, 5), ("A1", "bolt", 100, 7), ("B2", "nut", 250, 20)]


def test_left_join():
    t = STOCK.join(SALES, on="sku", how="left")
    assert t.records()[-1] == ("C3", "washer", 75, None)
    assert len(t) == 4


def test_name_collision_gets_suffix():
    other = Table(["sku", "name"], [["A1", "Bolt M6"]])
    t = STOCK.join(other, on="sku")
    assert t.columns == ["sku", "name", "qty", "name_right"]
    assert t.records() == [("A1", "bolt", 100, "Bolt M6")]


def test_missing_key_column():
    with pytest.raises(KeyError):
        STOCK.join(SALES, on="name")


def test_unknown_join_type():
    with pytest.raises(ValueError):
        STOCK.join(SALES, on="sku", how="sideways")
