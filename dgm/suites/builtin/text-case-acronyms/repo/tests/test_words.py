from casing import split_words


def test_separators():
    assert split_words("user_name") == ["user", "name"]
    assert split_words("user-name") == ["user", "name"]
    assert split_words("  user   name ") == ["user", "name"]
    assert split_words("config.file_path") == ["config", "file", "path"]


def test_camel_and_pascal():
    assert split_words("userName") == ["user", "Name"]
    assert split_words("UserNameField") == ["User", "Name", "Field"]


def test_digits_stay_with_the_word_before():
    assert split_words("utf8Encoder") == ["utf8", "Encoder"]
    assert split_words("base64_value") == ["base64", "value"]


def test_empty():
    assert split_words("") == []
    assert split_words("__") == []
