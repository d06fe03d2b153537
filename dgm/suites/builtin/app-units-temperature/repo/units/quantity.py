"""A value with a unit, as printed in the lab reports."""

from dataclasses import dataclass

from .registry import UnitRegistry


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str
    registry: UnitRegistry

    def to(self, unit: str) -> "Quantity":
        return Quantity(self.registry.convert(self.value, self.unit, unit), unit, self.registry)

    def format(self, digits: int = 2) -> str:
        symbol = self.registry.get(self.unit).symbol
        symbol = {"degC": "°C", "degF": "°F"}.get(symbol, symbol)
        return f"{self.value:.{digits}f} {symbol}"
