"""The unit registry.

Every unit belongs to a dimension (length, mass, temperature, ...) and is described relative to
the base unit of that dimension:  value_in_base = value * factor + offset.
"""

from dataclasses import dataclass


class UnknownUnit(KeyError):
    pass


class IncompatibleUnits(ValueError):
    pass


@dataclass(frozen=True)
class Unit:
    symbol: str
    dimension: str
    factor: float
    offset: float = 0.0


class UnitRegistry:
    def __init__(self):
        self._units: dict[str, Unit] = {}
        self._aliases: dict[str, str] = {}

    def define(self, symbol: str, dimension: str, factor: float, offset: float = 0.0,
               aliases: tuple[str, ...] = ()) -> Unit:
        if factor == 0:
            raise ValueError("factor must not be zero")
        if symbol in self._units or symbol in self._aliases:
            raise ValueError(f"unit {symbol!r} already defined")
        unit = Unit(symbol, dimension, factor, offset)
        self._units[symbol] = unit
        for alias in aliases:
            self._aliases[alias] = symbol
        return unit

    def get(self, name: str) -> Unit:
        symbol = self._aliases.get(name, name)
        try:
            return self._units[symbol]
        except KeyError:
            raise UnknownUnit(name) from None

    def units_of(self, dimension: str) -> list[str]:
        return sorted(u.symbol for u in self._units.values() if u.dimension == dimension)

    def convert(self, value: float, source: str, target: str) -> float:
        """Convert `value` from unit `source` to unit `target` (symbols or aliases)."""
        src, dst = self.get(source), self.get(target)
        if src.dimension != dst.dimension:
            raise IncompatibleUnits(f"cannot convert {src.dimension} ({src.symbol}) to {dst.dimension} ({dst.symbol})")
        return value * src.factor / dst.factor
