import pytest

from geo2d import Polygon, parcel_report

RECT = [(2, 1), (6, 1), (6, 4), (2, 4)]


def test_rectangle_away_from_origin():
    assert Polygon(RECT).area() == pytest.approx(12.0)
    assert Polygon(RECT).signed_area() == pytest.approx(12.0)


def test_clockwise_order():
    cw = Polygon(list(reversed(RECT)))
    assert cw.signed_area() == pytest.approx(-12.0)
    assert cw.area() == pytest.approx(12.0)
    assert cw.is_clockwise()
    assert not Polygon(RECT).is_clockwise()
    assert cw.oriented(clockwise=False).signed_area() == pytest.approx(12.0)


def test_triangle_and_l_shape():
    assert Polygon([(1, 1), (5, 2), (3, 6)]).area() == pytest.approx(9.0)
    l_shape = [(10, 10), (14, 10), (14, 11), (11, 11), (11, 13), (10, 13)]
    assert Polygon(l_shape).area() == pytest.approx(6.0)


def test_closed_ring_gives_same_area():
    assert Polygon(RECT + [RECT[0]]).area() == pytest.approx(12.0)


def test_centroid():
    assert Polygon(RECT).centroid() == pytest.approx((4.0, 2.5))
    assert Polygon([(1, 1), (5, 2), (3, 6)]).centroid() == pytest.approx((3.0, 3.0))


def test_negative_coordinates():
    assert Polygon([(-3, -2), (-1, -2), (-1, 2), (-3, 2)]).area() == pytest.approx(8.0)


def test_report_totals():
    text = parcel_report({"A": Polygon(RECT), "B": Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])})
    assert text.splitlines()[1:] == [
        "A                12.00     14.00",
        "B                 4.00      8.00",
        "total            16.00",
    ]


def test_shapes_at_origin_unchanged():
    assert Polygon([(0, 0), (3, 0), (3, 2), (0, 2)]).area() == pytest.approx(6.0)
