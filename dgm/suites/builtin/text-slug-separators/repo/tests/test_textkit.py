from textkit import slugify, word_count


def test_simple_title():
    assert slugify("Hello World") == "hello-world"


def test_accents_are_dropped():
    assert slugify("Crème brûlée") == "creme-brulee"


def test_word_count():
    assert word_count("one two  three") == 3
