"""geo2d: planar geometry for land-parcel outlines (coordinates in metres)."""

from .polygon import Polygon
from .report import parcel_report
from .vector import cross, distance

__all__ = ["Polygon", "cross", "distance", "parcel_report"]
