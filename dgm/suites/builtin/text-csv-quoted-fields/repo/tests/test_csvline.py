import pytest

from tabular import CsvError, join_line, split_line


def test_plain_fields():
    assert split_line("a,b,c") == ["a", "b", "c"]
    assert split_line("a,,c\n") == ["a", "", "c"]
    assert split_line("") == [""]


def test_quoted_delimiter():
    assert split_line('1,"Smith, John",NY') == ["1", "Smith, John", "NY"]


def test_empty_quoted_field():
    assert split_line('a,"",b') == ["a", "", "b"]


def test_other_delimiter():
    assert split_line('x;"y;z"', delimiter=";") == ["x", "y;z"]
    assert split_line("x\ty", delimiter="\t") == ["x", "y"]


def test_unterminated_quote():
    with pytest.raises(CsvError):
        split_line('a,"b,c')


def test_join_line_quotes_when_needed():
    assert join_line(["a", "b,c", "", " pad"]) == 'a,"b,c",""," pad"'
    assert join_line(['say "hi"']) == '"say ""hi"""'
    assert join_line([1, None, 2.5]) == '1,"",2.5'


def test_simple_round_trip():
    fields = ["id", "Smith, John", "", " x "]
    assert split_line(join_line(fields)) == fields
