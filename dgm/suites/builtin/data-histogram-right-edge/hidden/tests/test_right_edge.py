from histo import histogram, render_bars


def test_maximum_lands_in_last_bin():
    counts, edges = histogram([1, 2, 2, 3, 5], bins=4)
    assert edges == [1, 2, 3, 4, 5]
    assert counts == [1, 2, 1, 1]


def test_every_value_is_counted_without_range():
    datasets = [
        [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5],
        [0.25, 0.5, 0.75, 1.0],
        [-8, -4, 0, 4, 8],
        [10, 10, 20],
    ]
    for data in datasets:
        for bins in (1, 2, 3, 7):
            counts, _ = histogram(data, bins=bins)
            assert sum(counts) == len(data), (data, bins)


def test_value_on_upper_edge_of_explicit_range():
    counts, _ = histogram([0, 2.5, 10, 10], bins=5, range=(0, 10))
    assert counts == [1, 1, 0, 0, 2]


def test_values_above_range_still_ignored():
    counts, _ = histogram([-0.5, 0, 4, 10, 10.5, 11], bins=2, range=(0, 10))
    assert counts == [2, 1]


def test_inner_edges_go_to_the_right_bin():
    counts, _ = histogram([0, 2, 4, 6, 8, 10], bins=5)
    assert counts == [1, 1, 1, 1, 2]


def test_constant_data():
    counts, edges = histogram([7, 7, 7], bins=2)
    assert edges == [6.5, 7.0, 7.5]
    assert counts == [0, 3]


def test_rendered_chart_shows_the_maximum():
    counts, edges = histogram([0, 1, 1, 2], bins=2)
    assert render_bars(counts, edges, width=4).splitlines() == [
        "[0.0, 1.0) | # 1",
        "[1.0, 2.0] | #### 3",
    ]
