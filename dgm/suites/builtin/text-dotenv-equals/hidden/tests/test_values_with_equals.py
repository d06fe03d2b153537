import pytest

from envfile import EnvFileError, load_env, parse_env, parse_line


def test_url_with_query_string():
    line = "DATABASE_URL=postgres://app:pw@db:5432/app?sslmode=require&connect_timeout=10"
    assert parse_line(line) == (
        "DATABASE_URL",
        "postgres://app:pw@db:5432/app?sslmode=require&connect_timeout=10",
    )


def test_base64_padding():
    assert parse_line("SECRET_KEY=c2VjcmV0IGtleQ==") == ("SECRET_KEY", "c2VjcmV0IGtleQ==")
    assert parse_line("TOKEN = abc= ") == ("TOKEN", "abc=")


def test_quoted_values_with_equals():
    assert parse_line('JAVA_OPTS="-Xmx=2g -Dfile.encoding=UTF-8"') == (
        "JAVA_OPTS",
        "-Xmx=2g -Dfile.encoding=UTF-8",
    )
    assert parse_line("FILTER='a=1;b=2'") == ("FILTER", "a=1;b=2")
    assert parse_line('EQ="=="') == ("EQ", "==")


def test_export_and_inline_comment_with_equals():
    assert parse_line("export OPTS=a=b") == ("OPTS", "a=b")
    assert parse_line("MODE=x=y # default is x=z") == ("MODE", "x=y")


def test_whole_file_with_equals(tmp_path):
    path = tmp_path / ".env"
    path.write_text(
        "# connection\n"
        "DATABASE_URL=postgres://db/app?sslmode=require\n"
        "export SECRET=YWJj==\n"
        "NAME=demo\n",
        encoding="utf-8",
    )
    assert load_env(path) == {
        "DATABASE_URL": "postgres://db/app?sslmode=require",
        "SECRET": "YWJj==",
        "NAME": "demo",
    }
    assert parse_env(["A=1=2", "A=3"]) == {"A": "3"}


@pytest.mark.parametrize(
    "line",
    ["NO_EQUALS_HERE", "=value", " = a=b", "BAD NAME=a=b"],
    ids=["no-equals", "empty-name", "blank-name", "space-in-name"],
)
def test_malformed_lines_still_rejected(line):
    with pytest.raises(EnvFileError):
        parse_line(line, 1)
