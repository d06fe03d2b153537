"""The units our lab uses. Base units: m, kg, s, K, L."""

from .registry import UnitRegistry


def default_registry() -> UnitRegistry:
    reg = UnitRegistry()
    reg.define("m", "length", 1.0, aliases=("metre", "meter"))
    reg.define("km", "length", 1000.0)
    reg.define("cm", "length", 0.01)
    reg.define("mm", "length", 0.001)
    reg.define("in", "length", 0.0254, aliases=("inch",))
    reg.define("ft", "length", 0.3048, aliases=("foot", "feet"))
    reg.define("kg", "mass", 1.0)
    reg.define("g", "mass", 0.001)
    reg.define("lb", "mass", 0.45359237, aliases=("pound",))
    reg.define("s", "time", 1.0)
    reg.define("min", "time", 60.0)
    reg.define("h", "time", 3600.0)
    reg.define("L", "volume", 1.0, aliases=("l", "litre"))
    reg.define("mL", "volume", 0.001, aliases=("ml",))
    reg.define("K", "temperature", 1.0, aliases=("kelvin",))
    reg.define("degC", "temperature", 1.0, offset=273.15, aliases=("°C", "celsius"))
    reg.define("degF", "temperature", 5 / 9, offset=273.15 - 32 * 5 / 9, aliases=("°F", "fahrenheit"))
    return reg
