import pytest

from tabular import CsvError, read_records, read_rows, write_records, write_rows


def test_read_rows_skips_blank_lines():
    assert read_rows(["a,b\n", "\n", "1,2\n"]) == [["a", "b"], ["1", "2"]]


def test_read_records():
    lines = ["name,city\n", '"Doe, Jane",Paris\n', "Bob,Oslo\n"]
    assert read_records(lines) == [
        {"name": "Doe, Jane", "city": "Paris"},
        {"name": "Bob", "city": "Oslo"},
    ]


def test_read_records_wrong_width():
    with pytest.raises(CsvError, match="record 3"):
        read_records(["a,b", "1,2", "3"])


def test_error_has_line_number():
    with pytest.raises(CsvError, match="line 2"):
        read_rows(["a", '"open'])


def test_write_rows_and_records():
    assert write_rows([["a", "b,c"], [1, 2]]) == 'a,"b,c"\n1,2\n'
    text = write_records([{"name": "x", "n": 1}, {"name": "y"}])
    assert text == "name,n\nx,1\ny,\"\"\n"
    assert read_records(text.splitlines()) == [{"name": "x", "n": "1"}, {"name": "y", "n": ""}]
