from csvagg import read_csv


def test_types_and_blanks():
    rows = read_csv("store,amount\nnorth,12.5\nsouth,\n", types={"amount": float})
    assert rows == [{"store": "north", "amount": 12.5}, {"store": "south", "amount": None}]


def test_other_delimiter():
    rows = read_csv("a;b\n1;x\n", types={"a": int}, delimiter=";")
    assert rows == [{"a": 1, "b": "x"}]
