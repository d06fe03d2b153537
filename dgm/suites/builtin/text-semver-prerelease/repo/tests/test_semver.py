import pytest

from versions import InvalidVersion, Version


def test_parse_and_str():
    v = Version.parse("v1.4.2-beta.3+build.7")
    assert (v.major, v.minor, v.patch) == (1, 4, 2)
    assert v.prerelease == "beta.3"
    assert v.build == "build.7"
    assert str(v) == "1.4.2-beta.3+build.7"
    assert v.is_prerelease


@pytest.mark.parametrize(
    "text",
    ["1.2", "1.2.3.4", "01.2.3", "1.2.3-", "1.2.3-01", "1.2.3+", "a.b.c", "1.2.3-be$ta"],
    ids=["two-parts", "four-parts", "leading-zero", "empty-pre", "pre-leading-zero",
         "empty-build", "letters", "bad-char"],
)
def test_invalid(text):
    with pytest.raises(InvalidVersion):
        Version.parse(text)


def test_release_ordering_is_numeric():
    assert Version.parse("1.2.3") < Version.parse("1.10.0")
    assert Version.parse("1.9.9") < Version.parse("2.0.0")
    assert Version.parse("0.0.9") < "0.0.10"
    assert sorted(["1.10.0", "1.2.0", "1.9.1"], key=Version.parse) == ["1.2.0", "1.9.1", "1.10.0"]


def test_build_metadata_is_ignored():
    assert Version.parse("1.0.0+a") == Version.parse("1.0.0+b")
    assert hash(Version.parse("1.0.0+a")) == hash(Version.parse("1.0.0"))
    assert not Version.parse("1.0.0+zzz") < Version.parse("1.0.0")


def test_prerelease_equality():
    assert Version.parse("1.0.0-rc.1") == "1.0.0-rc.1"
    assert Version.parse("1.0.0-rc.1") != Version.parse("1.0.0-rc.2")


def test_bump():
    assert str(Version.parse("1.2.3").bump("minor")) == "1.3.0"
    assert str(Version.parse("1.2.3-rc.1").bump("patch")) == "1.2.3"
    assert str(Version.parse("1.2.3").bump("patch")) == "1.2.4"
    assert str(Version.parse("1.2.3").bump("major")) == "2.0.0"


def test_immutable():
    with pytest.raises(AttributeError):
        Version.parse("1.0.0").major = 2
