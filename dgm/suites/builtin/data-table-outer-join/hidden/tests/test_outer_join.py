import pytest

from tablekit import Table

STOCK = Table(["sku", "name", "qty"], [["A1", "bolt", 100], ["B2", "nut", 250], ["C3", "washer", 75]])
SALES = Table(["sku", "sold"], [["B2", 20], ["E5", 1], ["A1", 5], ["A1", 7], ["D4", 3]])


def test_outer_join_keeps_rows_from_both_sides():
    t = STOCK.join(SALES, on="sku", how="outer")
    assert t.columns == ["sku", "name", "qty", "sold"]
    assert t.records() == [
        ("A1", "bolt", 100, 5),
        ("A1", "bolt", 100, 7),
        ("B2", "nut", 250, 20),
        ("C3", "washer", 75, None),
        ("E5", None, None, 1),
        ("D4", None, None, 3),
    ]


def test_outer_join_from_csv_and_back():
    stock = Table.from_csv("sku,qty\nA1,100\nC3,75\n")
    sales = Table.from_csv("sku,sold\nD4,3\nA1,5\n")
    assert stock.join(sales, on="sku", how="outer").to_csv() == "sku,qty,sold\nA1,100,5\nC3,75,\nD4,,3\n"


def test_outer_join_without_overlap_and_with_empty_tables():
    left = Table(["k", "x"], [[1, "a"]])
    right = Table(["k", "y"], [[2, "b"]])
    assert left.join(right, on="k", how="outer").records() == [(1, "a", None), (2, None, "b")]
    empty = Table(["k", "y"])
    assert left.join(empty, on="k", how="outer").records() == [(1, "a", None)]
    assert Table(["k", "x"]).join(right, on="k", how="outer").records() == [(2, None, "b")]


def test_outer_join_many_to_many_and_suffix():
    left = Table(["id", "v"], [["x", 1], ["x", 2], ["z", 9]])
    right = Table(["id", "v"], [["x", 10], ["y", 20], ["x", 30]])
    t = left.join(right, on="id", how="outer")
    assert t.columns == ["id", "v", "v_right"]
    assert t.records() == [
        ("x", 1, 10),
        ("x", 1, 30),
        ("x", 2, 10),
        ("x", 2, 30),
        ("z", 9, None),
        ("y", None, 20),
    ]


def test_outer_join_on_two_columns():
    left = Table(["year", "month", "revenue"], [[2024, 1, 10.0], [2024, 2, 12.5]])
    right = Table(["year", "month", "cost"], [[2024, 2, 4.0], [2024, 3, 6.0], [2023, 1, 1.0]])
    t = left.join(right, on=["year", "month"], how="outer")
    assert t.records() == [
        (2024, 1, 10.0, None),
        (2024, 2, 12.5, 4.0),
        (2024, 3, None, 6.0),
        (2023, 1, None, 1.0),
    ]


def test_rows_with_missing_keys_are_kept_unmatched():
    left = Table(["k", "x"], [[None, "l0"], ["a", "l1"]])
    right = Table(["k", "y"], [["a", "r1"], [None, "r2"]])
    assert left.join(right, on="k", how="outer").records() == [
        (None, "l0", None),
        ("a", "l1", "r1"),
        (None, None, "r2"),
    ]


def test_other_join_types_unchanged():
    assert STOCK.join(SALES, on="sku").records() == [
        ("A1", "bolt", 100, 5),
        ("A1", "bolt", 100, 7),
        ("B2", "nut", 250, 20),
    ]
    assert STOCK.join(SALES, on="sku", how="left").records()[-1] == ("C3", "washer", 75, None)
    with pytest.raises(ValueError):
        STOCK.join(SALES, on="sku", how="cross")
