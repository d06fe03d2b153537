import pytest

from confparse import ConfigError, parse


CONFIG = parse(
    "[app]\nworkers = 4\ndebug = yes\nverbose = off\nname = demo\n"
    "plugins = auth, cache ,metrics\nratio = x\n"
)


def test_getint():
    assert CONFIG.getint("app", "workers") == 4
    assert CONFIG.getint("app", "missing", fallback=2) == 2
    with pytest.raises(ConfigError):
        CONFIG.getint("app", "name")


def test_getboolean():
    assert CONFIG.getboolean("app", "debug") is True
    assert CONFIG.getboolean("app", "verbose") is False
    with pytest.raises(ConfigError):
        CONFIG.getboolean("app", "ratio")


def test_getlist_commas():
    assert CONFIG.getlist("app", "plugins") == ["auth", "cache", "metrics"]


def test_missing_option():
    with pytest.raises(KeyError):
        CONFIG.get("app", "nope")
    with pytest.raises(KeyError):
        CONFIG.get("nosection", "x")
    assert CONFIG.get("app", "nope", fallback=None) is None
    assert CONFIG.has_option("app", "Workers")
