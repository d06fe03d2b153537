import pytest

from units import Quantity, UnitRegistry, default_registry


@pytest.fixture
def reg():
    return default_registry()


def test_celsius_to_fahrenheit(reg):
    assert reg.convert(100, "degC", "degF") == pytest.approx(212)
    assert reg.convert(0, "°C", "°F") == pytest.approx(32)
    assert reg.convert(-40, "celsius", "fahrenheit") == pytest.approx(-40)
    assert reg.convert(37, "degC", "degF") == pytest.approx(98.6)


def test_fahrenheit_to_celsius(reg):
    assert reg.convert(212, "degF", "degC") == pytest.approx(100)
    assert reg.convert(50, "°F", "°C") == pytest.approx(10)


def test_to_and_from_kelvin(reg):
    assert reg.convert(0, "degC", "K") == pytest.approx(273.15)
    assert reg.convert(300, "kelvin", "degC") == pytest.approx(26.85)
    assert reg.convert(0, "K", "degF") == pytest.approx(-459.67)
    assert reg.convert(32, "degF", "K") == pytest.approx(273.15)


def test_round_trip(reg):
    for value in (-17.5, 0, 21.3, 1000):
        back = reg.convert(reg.convert(value, "degC", "degF"), "degF", "degC")
        assert back == pytest.approx(value)


def test_quantity_report(reg):
    assert Quantity(21.5, "degC", reg).to("degF").format(1) == "70.7 °F"
    assert Quantity(98.6, "degF", reg).to("degC").format(1) == "37.0 °C"


def test_custom_offset_unit():
    reg = UnitRegistry()
    reg.define("K", "temperature", 1.0)
    reg.define("degR", "temperature", 5 / 9)                      # Rankine, no offset
    reg.define("degC", "temperature", 1.0, offset=273.15)
    assert reg.convert(100, "degC", "degR") == pytest.approx(671.67)
    assert reg.convert(491.67, "degR", "degC") == pytest.approx(0)


def test_same_unit_and_plain_units_unchanged(reg):
    assert reg.convert(25, "degC", "degC") == pytest.approx(25)
    assert reg.convert(5, "K", "K") == pytest.approx(5)
    assert reg.convert(1, "km", "ft") == pytest.approx(3280.839895)
    assert reg.convert(2, "h", "s") == pytest.approx(7200)
