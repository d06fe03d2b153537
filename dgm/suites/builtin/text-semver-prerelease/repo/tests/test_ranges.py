import pytest

from versions import InvalidVersion, Range, latest, satisfies


def test_comparators():
    assert satisfies("1.4.0", ">=1.2.0,<2.0.0")
    assert not satisfies("2.0.0", ">=1.2.0,<2.0.0")
    assert satisfies("1.4.2", "1.4.2")
    assert satisfies("1.4.2", "==1.4.2")
    assert satisfies("1.4.3", "!=1.4.2")


def test_caret_and_tilde():
    assert satisfies("1.9.0", "^1.4.2")
    assert not satisfies("2.0.0", "^1.4.2")
    assert satisfies("0.3.9", "^0.3.1")
    assert not satisfies("0.4.0", "^0.3.1")
    assert satisfies("1.4.9", "~1.4.2")
    assert not satisfies("1.5.0", "~1.4")


def test_short_versions_in_ranges():
    assert "1.4.0" in Range(">=1.4")
    assert "3.0.0" not in Range("<3")


def test_bad_range():
    with pytest.raises(InvalidVersion):
        Range(">=banana")


def test_latest():
    versions = ["1.2.0", "1.10.0", "1.9.3", "2.0.0"]
    assert str(latest(versions)) == "2.0.0"
    assert str(latest(versions, "^1.0")) == "1.10.0"
    assert latest([], None) is None
    assert latest(versions, ">=3") is None
