import pytest

from mdtable import TableError, parse_table
from mdtable.parse import split_row


def test_split_row():
    assert split_row("| a | b |") == ["a", "b"]
    assert split_row("a | b") == ["a", "b"]
    assert split_row("| a \\| b | c |") == ["a | b", "c"]
    assert split_row("| | x |") == ["", "x"]


def test_parse_table():
    table = parse_table("Intro text\n\n| Name | Qty |\n|------|----:|\n| apple | 3 |\n| pear |\n\nAfter")
    assert table.header == ["Name", "Qty"]
    assert table.rows == [["apple", "3"], ["pear"]]
    assert table.normalized_rows() == [["apple", "3"], ["pear", ""]]


@pytest.mark.parametrize(
    "text",
    ["no table here", "| a | b |", "| a | b |\n| -- |\n", "| a |\n| x |\n", "| a |\n| :: |\n"],
    ids=["no-pipes", "no-delimiter", "wrong-width", "not-dashes", "only-colons"],
)
def test_errors(text):
    with pytest.raises(TableError):
        parse_table(text)
