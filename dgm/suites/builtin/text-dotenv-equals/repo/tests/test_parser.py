import pytest

from envfile import EnvFileError, parse_line


def test_blank_and_comment_lines():
    assert parse_line("") is None
    assert parse_line("   ") is None
    assert parse_line("# DEBUG=1") is None


def test_simple_assignment():
    assert parse_line("DEBUG=1") == ("DEBUG", "1")
    assert parse_line("  PORT = 8080  ") == ("PORT", "8080")
    assert parse_line("EMPTY=") == ("EMPTY", "")


def test_export_prefix():
    assert parse_line("export HOME_DIR=/srv/app") == ("HOME_DIR", "/srv/app")


def test_inline_comment():
    assert parse_line("LEVEL=info # or debug") == ("LEVEL", "info")
    assert parse_line("COLOR=#ff0000") == ("COLOR", "#ff0000")


def test_quotes():
    assert parse_line("GREETING='hello $USER'") == ("GREETING", "hello $USER")
    assert parse_line('MOTD="two\\nlines"') == ("MOTD", "two\nlines")
    assert parse_line('QUOTED="say \\"hi\\"" # note') == ("QUOTED", 'say "hi"')


@pytest.mark.parametrize(
    "line",
    ["JUST_A_NAME", "1ABC=x", "BAD NAME=x", "X='open", 'Y="a" b'],
    ids=["no-equals", "digit-first", "space-in-name", "open-quote", "text-after-quote"],
)
def test_errors(line):
    with pytest.raises(EnvFileError):
        parse_line(line, 3)


def test_error_mentions_line_number():
    with pytest.raises(EnvFileError, match="line 7"):
        parse_line("oops", 7)
