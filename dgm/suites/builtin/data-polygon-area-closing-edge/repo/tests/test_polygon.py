import pytest

from geo2d import Polygon, parcel_report

UNIT_SQUARE = [(0, 0), (1, 0), (1, 1), (0, 1)]


def test_unit_square():
    sq = Polygon(UNIT_SQUARE)
    assert sq.area() == pytest.approx(1.0)
    assert sq.perimeter() == pytest.approx(4.0)


def test_needs_three_vertices():
    with pytest.raises(ValueError):
        Polygon([(0, 0), (1, 1), (0, 0)])


def test_closed_ring_is_accepted():
    assert Polygon(UNIT_SQUARE + [(0, 0)]).points == Polygon(UNIT_SQUARE).points


def test_perimeter_of_offset_rectangle():
    assert Polygon([(2, 1), (6, 1), (6, 4), (2, 4)]).perimeter() == pytest.approx(14.0)


def test_bounding_box():
    assert Polygon([(2, 1), (6, 1), (5, 4)]).bounding_box() == (2, 1, 6, 4)


def test_report_layout():
    text = parcel_report({"P-1": Polygon(UNIT_SQUARE)})
    assert text.splitlines() == [
        "parcel         area m2   perim m",
        "P-1               1.00      4.00",
        "total             1.00",
    ]
