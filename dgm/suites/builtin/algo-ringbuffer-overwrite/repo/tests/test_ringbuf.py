import pytest

from ringbuf import BufferEmpty, BufferFull, MovingAverage, RingBuffer, TailLog


def test_append_and_iterate_in_order():
    buf = RingBuffer(4)
    buf.extend([1, 2, 3])
    assert buf.to_list() == [1, 2, 3]
    assert len(buf) == 3
    assert not buf.full
    assert buf.oldest() == 1 and buf.newest() == 3


def test_popleft_is_fifo():
    buf = RingBuffer(3)
    buf.extend("abc")
    assert buf.popleft() == "a"
    buf.append("d")
    assert buf.to_list() == ["b", "c", "d"]
    assert [buf.popleft() for _ in range(3)] == ["b", "c", "d"]
    with pytest.raises(BufferEmpty):
        buf.popleft()


def test_no_overwrite_raises_when_full():
    buf = RingBuffer(2, overwrite=False)
    buf.extend([1, 2])
    assert buf.full
    with pytest.raises(BufferFull):
        buf.append(3)
    assert buf.to_list() == [1, 2]


def test_clear():
    buf = RingBuffer(2)
    buf.extend([1, 2])
    buf.clear()
    assert buf.to_list() == []
    with pytest.raises(BufferEmpty):
        buf.newest()


def test_invalid_capacity():
    with pytest.raises(ValueError):
        RingBuffer(0)


def test_moving_average_partial_window():
    avg = MovingAverage(5)
    assert avg.value is None
    assert avg.add(2) == 2
    assert avg.add(4) == 3


def test_tail_log_short():
    log = TailLog(lines=5)
    log.write("one\ntwo")
    assert log.tail() == ["one", "two"]
    assert log.render() == "one\ntwo"
