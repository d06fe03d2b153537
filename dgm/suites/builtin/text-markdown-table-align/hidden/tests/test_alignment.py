from mdtable import Table, format_table, parse_table, render_table

PRICES = """\
| Item | Qty | Price |
|:-----|:---:|------:|
| Apple | 3 | 1.20 |
| Watermelon | 12 | 10.50 |
"""


def test_alignment_is_kept_and_applied():
    assert format_table(PRICES) == (
        "| Item       | Qty | Price |\n"
        "| :--------- | :-: | ----: |\n"
        "| Apple      |  3  |  1.20 |\n"
        "| Watermelon | 12  | 10.50 |"
    )


def test_right_aligned_column():
    text = "| n | total |\n|--:|---:|\n| 1 | 5 |\n| 100 | 2500 |"
    assert format_table(text) == (
        "|   n | total |\n"
        "| --: | ----: |\n"
        "|   1 |     5 |\n"
        "| 100 |  2500 |"
    )


def test_centered_column_puts_odd_space_on_the_right():
    text = "| status |\n| :----: |\n| ok |\n| failed |\n| slow |"
    assert format_table(text) == (
        "| status |\n"
        "| :----: |\n"
        "|   ok   |\n"
        "| failed |\n"
        "|  slow  |"
    )
    odd = "|  x  |\n|:---:|\n| ab |\n| abcd |"
    assert format_table(odd) == "|  x   |\n| :--: |\n|  ab  |\n| abcd |"


def test_centered_header_wider_than_cells():
    text = "| Enabled | a |\n|:-:|---|\n| y | b |"
    assert format_table(text) == (
        "| Enabled | a   |\n"
        "| :-----: | --- |\n"
        "|    y    | b   |"
    )


def test_explicit_left_alignment_keeps_its_colon():
    text = "| name | note |\n|:--|--|\n| a | b |"
    assert format_table(text) == (
        "| name | note |\n"
        "| :--- | ---- |\n"
        "| a    | b    |"
    )


def test_empty_cells_and_short_rows_in_aligned_columns():
    text = "| a | b | c |\n|:-:|--:|:--|\n| x |"
    assert format_table(text) == (
        "|  a  |   b | c   |\n"
        "| :-: | --: | :-- |\n"
        "|  x  |     |     |"
    )


def test_formatting_aligned_tables_is_idempotent():
    once = format_table(PRICES)
    assert format_table(once) == once
    assert format_table("|a|b|\n|:-:|-:|\n|long text|1|") == format_table(
        format_table("|a|b|\n|:-:|-:|\n|long text|1|")
    )


def test_escaped_pipes_in_aligned_columns():
    text = "| cmd | code |\n|:-:|--:|\n| a \\| b | 0 |"
    out = format_table(text)
    assert out.splitlines()[2] == "| a \\| b |    0 |"
    assert parse_table(out).rows == [["a | b", "0"]]


def test_tables_without_alignment_unchanged():
    assert format_table("| Name | Qty |\n|---|---|\n| apple | 3 |") == (
        "| Name  | Qty |\n"
        "| ----- | --- |\n"
        "| apple | 3   |"
    )
    assert render_table(Table(["a", "b"], [["x"]])) == "| a   | b   |\n| --- | --- |\n| x   |     |"
