from spans import Interval, format_interval, free_slots, merge, parse_interval, total_length


def test_back_to_back_intervals_are_merged():
    assert merge([Interval(540, 600), Interval(600, 660)]) == [Interval(540, 660)]


def test_chain_of_touching_intervals_unsorted():
    blocks = [(6, 9), (0, 3), (3, 6), (20, 21)]
    assert merge(blocks) == [Interval(0, 9), Interval(20, 21)]


def test_zero_length_interval_touching_neighbour():
    assert merge([Interval(5, 5), Interval(5, 8)]) == [Interval(5, 8)]
    assert merge([Interval(2, 5), Interval(5, 5)]) == [Interval(2, 5)]


def test_touching_after_a_long_interval():
    assert merge([Interval(0, 10), Interval(2, 4), Interval(10, 12)]) == [Interval(0, 12)]


def test_busy_calendar_blocks():
    busy = [parse_interval(t) for t in ["09:00-10:00", "10:00-11:00", "11:00-11:30", "14:00-15:00"]]
    assert [format_interval(b) for b in merge(busy)] == ["09:00-11:30", "14:00-15:00"]
    assert total_length(busy) == 210


def test_separated_intervals_stay_apart():
    assert merge([Interval(0, 3), Interval(4, 6)]) == [Interval(0, 3), Interval(4, 6)]
    assert merge([Interval(4, 6), Interval(0, 3), Interval(7, 7)]) == [Interval(0, 3), Interval(4, 6), Interval(7, 7)]


def test_free_slots_with_back_to_back_meetings():
    busy = [parse_interval("09:00-10:00"), parse_interval("10:00-11:00")]
    day = parse_interval("08:00-12:00")
    assert [format_interval(s) for s in free_slots(busy, day)] == ["08:00-09:00", "11:00-12:00"]
