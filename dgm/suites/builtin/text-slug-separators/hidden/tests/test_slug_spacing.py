from textkit import slugify


def test_runs_of_spaces_give_one_separator():
    assert slugify("Release  notes   2024") == "release-notes-2024"


def test_tabs_and_newlines_count_as_spaces():
    assert slugify("a \tb\n\nc") == "a-b-c"


def test_custom_separator():
    assert slugify("Hello   big World", separator="_") == "hello_big_world"
