import pytest

from tabular import CsvError, join_line, read_records, split_line, write_records


def test_doubled_quotes_inside_quoted_field():
    assert split_line('1,"He said ""hi""",x') == ["1", 'He said "hi"', "x"]
    assert split_line('"a""b",c') == ['a"b', "c"]


def test_field_that_is_only_a_quote():
    assert split_line('""""') == ['"']
    assert split_line('x,"""""",y') == ["x", '""', "y"]


def test_doubled_quote_next_to_delimiter():
    assert split_line('"x"",y",z') == ['x",y', "z"]
    assert split_line('"12"" monitor, used",99') == ['12" monitor, used', "99"]


def test_custom_quote_character():
    assert split_line("a,'it''s'", quote="'") == ["a", "it's"]
    assert split_line('a;"b;""c""";d', delimiter=";") == ["a", 'b;"c"', "d"]


@pytest.mark.parametrize(
    "fields",
    [
        ['say "hi"', "plain"],
        ['"', '""', ""],
        ['a,"b"', ' "padded" '],
        ['"quoted at both ends"', 'mid"dle', "end\""],
    ],
    ids=["words", "only-quotes", "delimiter-and-padding", "edges"],
)
def test_join_then_split_round_trip(fields):
    assert split_line(join_line(fields)) == fields


def test_records_round_trip():
    records = [
        {"sku": "A1", "title": '27" monitor', "note": 'ships "as is", no box'},
        {"sku": "B2", "title": "cable", "note": ""},
    ]
    text = write_records(records)
    assert read_records(text.splitlines()) == records


def test_empty_and_unterminated_fields_unchanged():
    assert split_line('a,"",b') == ["a", "", "b"]
    assert split_line('"",""') == ["", ""]
    with pytest.raises(CsvError):
        split_line('"abc""')
    with pytest.raises(CsvError):
        split_line('a,"b""c')
