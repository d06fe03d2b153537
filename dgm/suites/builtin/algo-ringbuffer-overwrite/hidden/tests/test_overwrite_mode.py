import pytest

from ringbuf import BufferFull, MovingAverage, RingBuffer, TailLog


def test_overwrite_drops_oldest_and_keeps_order():
    buf = RingBuffer(3)
    buf.extend([1, 2, 3, 4])
    assert buf.to_list() == [2, 3, 4]
    buf.append(5)
    assert buf.to_list() == [3, 4, 5]
    assert len(buf) == 3 and buf.full


def test_oldest_and_newest_after_wrapping():
    buf = RingBuffer(3)
    buf.extend(range(10))
    assert buf.oldest() == 7
    assert buf.newest() == 9
    assert list(buf) == [7, 8, 9]


def test_extend_longer_than_capacity_keeps_last_items():
    buf = RingBuffer(4)
    buf.extend("abcdefghij")
    assert "".join(buf) == "ghij"


def test_popleft_after_overwrite():
    buf = RingBuffer(3)
    buf.extend([1, 2, 3, 4, 5])
    assert buf.popleft() == 3
    buf.append(6)
    buf.append(7)
    assert buf.to_list() == [5, 6, 7]
    assert [buf.popleft() for _ in range(3)] == [5, 6, 7]


def test_capacity_one():
    buf = RingBuffer(1)
    buf.extend(["x", "y", "z"])
    assert buf.to_list() == ["z"]
    assert buf.oldest() == buf.newest() == "z"


def test_moving_average_over_full_window():
    avg = MovingAverage(3)
    results = [avg.add(v) for v in [1, 2, 3, 4, 5, 6]]
    assert results == [1, 1.5, 2, 3, 4, 5]


def test_tail_log_keeps_last_lines():
    log = TailLog(lines=3)
    log.write("l1\nl2\nl3\nl4")
    log.write("l5")
    assert log.tail() == ["l3", "l4", "l5"]
    assert log.render() == "l3\nl4\nl5"


def test_non_overwriting_buffer_still_refuses():
    buf = RingBuffer(3, overwrite=False)
    buf.extend([1, 2, 3])
    with pytest.raises(BufferFull):
        buf.append(4)
    assert buf.popleft() == 1
    buf.append(4)
    assert buf.to_list() == [2, 3, 4]
