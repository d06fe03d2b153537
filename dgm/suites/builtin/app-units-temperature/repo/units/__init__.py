"""Unit conversion used by the lab-report generator."""

from .defaults import default_registry
from .quantity import Quantity
from .registry import IncompatibleUnits, Unit, UnitRegistry, UnknownUnit

__all__ = ["IncompatibleUnits", "Quantity", "Unit", "UnitRegistry", "UnknownUnit", "default_registry"]
