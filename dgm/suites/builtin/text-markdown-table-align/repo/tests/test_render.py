from mdtable import Table, format_table, parse_table, render_table


def test_render_pads_columns():
    table = Table(["Name", "Qty"], [["apple", "3"], ["kiwi", "12"]])
    assert render_table(table) == (
        "| Name  | Qty |\n"
        "| ----- | --- |\n"
        "| apple | 3   |\n"
        "| kiwi  | 12  |"
    )


def test_short_rows_are_filled():
    table = Table(["a", "b"], [["x"]])
    assert render_table(table) == "| a   | b   |\n| --- | --- |\n| x   |     |"


def test_pipes_are_escaped():
    text = format_table("| cmd | note |\n|---|---|\n| a \\| b | ok |")
    assert text.splitlines()[2] == "| a \\| b | ok   |"
    assert parse_table(text).rows == [["a | b", "ok"]]


def test_format_is_idempotent():
    once = format_table("|x|yy|\n|-|-|\n|long value|1|")
    assert format_table(once) == once
