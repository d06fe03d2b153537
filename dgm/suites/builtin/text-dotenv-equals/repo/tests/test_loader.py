from envfile import apply_env, load_env, parse_env


def test_parse_env_later_wins():
    lines = ["# settings", "A=1", "", "B=two", "A=3"]
    assert parse_env(lines) == {"A": "3", "B": "two"}


def test_load_env(tmp_path):
    path = tmp_path / ".env"
    path.write_text("NAME=demo\nexport DEBUG=true\n", encoding="utf-8")
    assert load_env(path) == {"NAME": "demo", "DEBUG": "true"}


def test_apply_env_keeps_existing():
    environ = {"A": "old"}
    changed = apply_env({"A": "new", "B": "b"}, environ)
    assert environ == {"A": "old", "B": "b"}
    assert changed == ["B"]


def test_apply_env_override():
    environ = {"A": "old"}
    apply_env({"A": "new"}, environ, override=True)
    assert environ == {"A": "new"}
