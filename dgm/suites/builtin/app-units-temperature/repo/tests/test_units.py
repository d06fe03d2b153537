import pytest

from units import IncompatibleUnits, Quantity, UnknownUnit, default_registry


@pytest.fixture
def reg():
    return default_registry()


def test_length(reg):
    assert reg.convert(2.5, "km", "m") == pytest.approx(2500)
    assert reg.convert(12, "in", "ft") == pytest.approx(1)
    assert reg.convert(30, "cm", "mm") == pytest.approx(300)


def test_mass_and_time(reg):
    assert reg.convert(1, "lb", "g") == pytest.approx(453.59237)
    assert reg.convert(90, "min", "h") == pytest.approx(1.5)


def test_aliases(reg):
    assert reg.convert(3, "feet", "metre") == pytest.approx(0.9144)
    assert reg.convert(250, "ml", "litre") == pytest.approx(0.25)


def test_incompatible_units(reg):
    with pytest.raises(IncompatibleUnits):
        reg.convert(1, "kg", "m")


def test_unknown_unit(reg):
    with pytest.raises(UnknownUnit):
        reg.convert(1, "parsec", "m")


def test_duplicate_definition(reg):
    with pytest.raises(ValueError):
        reg.define("km", "length", 1000)


def test_temperature_units_listed(reg):
    assert reg.units_of("temperature") == ["K", "degC", "degF"]


def test_quantity_format(reg):
    q = Quantity(1.5, "km", reg).to("m")
    assert q.format(0) == "1500 m"
