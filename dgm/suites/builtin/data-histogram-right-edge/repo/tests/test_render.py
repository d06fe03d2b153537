from histo import render_bars


def test_render_scales_to_width():
    text = render_bars([1, 4, 2], [0, 1, 2, 3], width=8)
    assert text.splitlines() == [
        "[0.0, 1.0) | ## 1",
        "[1.0, 2.0) | ######## 4",
        "[2.0, 3.0] | #### 2",
    ]


def test_render_empty_bins():
    assert render_bars([0, 0], [0, 1, 2]) == "[0.0, 1.0) |  0\n[1.0, 2.0] |  0"
