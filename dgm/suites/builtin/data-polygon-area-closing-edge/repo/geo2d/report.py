"""Text summary of parcels for the land registry export."""

from typing import Mapping

from .polygon import Polygon


def parcel_report(parcels: Mapping[str, Polygon]) -> str:
    """One line per parcel: id, area in m², perimeter in m; then the total area."""
    lines = [f"{'parcel':<10}{'area m2':>12}{'perim m':>10}"]
    total = 0.0
    for name, poly in parcels.items():
        area = poly.area()
        total += area
        lines.append(f"{name:<10}{area:>12.2f}{poly.perimeter():>10.2f}")
    lines.append(f"{'total':<10}{total:>12.2f}")
    return "\n".join(lines)
