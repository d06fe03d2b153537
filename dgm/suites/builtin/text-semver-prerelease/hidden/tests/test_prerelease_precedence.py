from versions import Range, Version, latest, satisfies

SPEC_ORDER = [
    "1.0.0-1",
    "1.0.0-2",
    "1.0.0-10",
    "1.0.0-alpha",
    "1.0.0-alpha.1",
    "1.0.0-alpha.beta",
    "1.0.0-beta",
    "1.0.0-beta.2",
    "1.0.0-beta.11",
    "1.0.0-rc.1",
    "1.0.0",
    "1.0.1-alpha",
    "1.0.1",
]


def test_release_ranks_above_its_prereleases():
    assert Version.parse("1.0.0-alpha") < Version.parse("1.0.0")
    assert Version.parse("1.0.0") > Version.parse("1.0.0-rc.1")
    assert Version.parse("2.0.0-rc.1") < "2.0.0"
    assert not Version.parse("1.0.0") < Version.parse("1.0.0-rc.1")


def test_numeric_identifiers_compare_as_numbers():
    assert Version.parse("1.0.0-beta.2") < Version.parse("1.0.0-beta.11")
    assert Version.parse("1.0.0-rc.9") < Version.parse("1.0.0-rc.10")
    assert Version.parse("1.0.0-2") < Version.parse("1.0.0-10")


def test_full_specification_order():
    reverse = SPEC_ORDER[::-1]
    shuffled = reverse[::2] + reverse[1::2]
    assert [str(v) for v in sorted(map(Version.parse, shuffled))] == SPEC_ORDER
    for lower, higher in zip(SPEC_ORDER, SPEC_ORDER[1:]):
        assert Version.parse(lower) < Version.parse(higher)
        assert Version.parse(higher) > Version.parse(lower)


def test_latest_prefers_the_final_release():
    assert str(latest(["1.0.0-rc.1", "1.0.0", "1.0.0-beta.3"])) == "1.0.0"
    assert str(latest(["2.0.0-rc.2", "2.0.0-rc.10", "1.9.0"])) == "2.0.0-rc.10"


def test_ranges_with_prereleases():
    assert satisfies("1.0.0", ">1.0.0-rc.1")
    assert satisfies("1.0.0-rc.1", "<1.0.0")
    assert "1.0.0-beta.11" in Range(">=1.0.0-beta.2")


def test_unchanged_behaviour():
    assert Version.parse("1.0.0-alpha") < Version.parse("1.0.0-alpha.1")
    assert Version.parse("1.0.0-rc.1+a") == Version.parse("1.0.0-rc.1+b")
    assert hash(Version.parse("1.0.0-rc.1+a")) == hash(Version.parse("1.0.0-rc.1"))
    assert Version.parse("1.0.0") == "1.0.0+anything"
    assert Version.parse("1.2.3") < Version.parse("1.10.0-alpha")
    assert Version.parse("1.0.0-beta") != Version.parse("1.0.0")
