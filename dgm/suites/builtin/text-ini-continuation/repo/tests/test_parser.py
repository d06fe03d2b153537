import pytest

from confparse import ParseError, parse, parse_file

SAMPLE = """\
; deployment settings
[server]
host = 0.0.0.0
Port: 8080

# workers
[Database]
url = postgres://db/app?sslmode=require
pool = 5
"""


def test_sections_and_options():
    config = parse(SAMPLE)
    assert config.sections() == ["server", "database"]
    assert config.get("server", "host") == "0.0.0.0"
    assert config.get("server", "port") == "8080"
    assert config.get("DATABASE", "URL") == "postgres://db/app?sslmode=require"


def test_repeated_section_is_merged():
    config = parse("[a]\nx = 1\n[b]\ny = 2\n[a]\nx = 3\nz = 4\n")
    assert config.options("a") == {"x": "3", "z": "4"}


def test_empty_value():
    assert parse("[a]\nempty =\n").get("a", "empty") == ""


@pytest.mark.parametrize(
    "text, lineno",
    [("x = 1\n", 1), ("[a]\njust words\n", 2), ("[a\n", 1), ("[]\n", 1), ("[a]\n= 3\n", 2)],
    ids=["outside-section", "no-separator", "unclosed-header", "empty-header", "no-name"],
)
def test_errors(text, lineno):
    with pytest.raises(ParseError) as info:
        parse(text)
    assert info.value.lineno == lineno


def test_parse_file(tmp_path):
    path = tmp_path / "app.ini"
    path.write_text("[app]\nname = demo\n", encoding="utf-8")
    assert parse_file(path).get("app", "name") == "demo"
