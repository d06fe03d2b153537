"""Operations on 2D points given as (x, y) tuples."""

import math

Point = tuple[float, float]


def distance(a: Point, b: Point) -> float:
    """Euclidean distance between two points."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def cross(a: Point, b: Point) -> float:
    """z-component of the cross product of position vectors a and b."""
    return a[0] * b[1] - a[1] * b[0]
