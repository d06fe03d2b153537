"""Simple polygons.

Vertices may be given counter-clockwise or clockwise, as an open ring
(``[a, b, c]``) or a closed one as in GeoJSON (``[a, b, c, a]``).  The
polygon always has an edge from its last vertex back to its first.
"""

from typing import Iterable, Iterator

from .vector import Point, cross, distance


class Polygon:
    def __init__(self, points: Iterable[Point]):
        pts = [(float(x), float(y)) for x, y in points]
        if len(pts) > 1 and pts[0] == pts[-1]:
            pts.pop()  # closed ring: drop the repeated first vertex
        if len(pts) < 3:
            raise ValueError("a polygon needs at least three distinct vertices")
        self.points = pts

    def edges(self) -> Iterator[tuple[Point, Point]]:
        """Each edge as (start, end), including the closing edge."""
        pts = self.points
        return zip(pts, pts[1:] + pts[:1])

    def signed_area(self) -> float:
        """Shoelace formula: positive for counter-clockwise vertex order."""
        pts = self.points
        return sum(cross(a, b) for a, b in zip(pts, pts[1:])) / 2

    def area(self) -> float:
        """Enclosed area, whatever the vertex order."""
        return abs(self.signed_area())

    def perimeter(self) -> float:
        return sum(distance(a, b) for a, b in self.edges())

    def is_clockwise(self) -> bool:
        return self.signed_area() < 0

    def oriented(self, clockwise: bool = False) -> "Polygon":
        """The same polygon with the requested vertex order."""
        if self.is_clockwise() == clockwise:
            return Polygon(self.points)
        return Polygon(list(reversed(self.points)))

    def centroid(self) -> Point:
        """Centre of mass of the enclosed region."""
        a = self.signed_area()
        if a == 0:
            raise ValueError("degenerate polygon has no centroid")
        cx = sum((p[0] + q[0]) * cross(p, q) for p, q in self.edges()) / (6 * a)
        cy = sum((p[1] + q[1]) * cross(p, q) for p, q in self.edges()) / (6 * a)
        return (cx, cy)

    def bounding_box(self) -> tuple[float, float, float, float]:
        xs = [p[0] for p in self.points]
        ys = [p[1] for p in self.points]
        return (min(xs), min(ys), max(xs), max(ys))
