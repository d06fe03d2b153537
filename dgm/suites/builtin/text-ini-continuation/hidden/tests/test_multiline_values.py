import pytest

from confparse import ParseError, parse

DEPLOY = """\
[server]
host = 0.0.0.0
allowed_hosts =
    example.com
    www.example.com
    api.example.com
workers = 4

[job]
command = run-report
    --format=csv
    --since: yesterday
description: Nightly report,
  mailed to the team
"""


def test_continuation_lines_are_joined_with_newlines():
    config = parse(DEPLOY)
    assert config.get("job", "command") == "run-report\n--format=csv\n--since: yesterday"
    assert config.get("job", "description") == "Nightly report,\nmailed to the team"


def test_continuation_lines_are_not_options():
    config = parse(DEPLOY)
    assert set(config.options("job")) == {"command", "description"}
    assert set(config.options("server")) == {"host", "allowed_hosts", "workers"}
    assert config.getint("server", "workers") == 4
    assert config.get("server", "host") == "0.0.0.0"


def test_getlist_one_item_per_line():
    config = parse(DEPLOY)
    assert config.getlist("server", "allowed_hosts") == [
        "example.com",
        "www.example.com",
        "api.example.com",
    ]


def test_tab_indented_continuation():
    config = parse("[a]\npaths = /usr/bin\n\t/usr/local/bin\nnext = 1\n")
    assert config.get("a", "paths") == "/usr/bin\n/usr/local/bin"
    assert config.get("a", "next") == "1"


def test_continuation_relative_to_indented_option():
    text = "[a]\n  key = first\n      second\n  other = x\n"
    config = parse(text)
    assert config.get("a", "key") == "first\nsecond"
    assert config.get("a", "other") == "x"


def test_uniformly_indented_options_stay_options():
    config = parse("[server]\n    host = localhost\n    port = 8080\n")
    assert config.options("server") == {"host": "localhost", "port": "8080"}


def test_indented_line_without_option_is_still_an_error():
    with pytest.raises(ParseError) as info:
        parse("[a]\n    just words\n")
    assert info.value.lineno == 2


def test_section_header_ends_the_value():
    config = parse("[a]\nx = 1\n  2\n[b]\ny = 3\n")
    assert config.get("a", "x") == "1\n2"
    assert config.get("b", "y") == "3"
