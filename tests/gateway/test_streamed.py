"""A streamed embedded call put back together is the reply a plain call gives; one whose
caller is gone stops decoding (the real model: tests/model/test_local_model.py)."""

from __future__ import annotations

from dgm.gateway import streamed


def chunk(content=None, finish=None, **extra):
    delta = {} if content is None else {"content": content}
    return {
        "id": "c1",
        "created": 7,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        **extra,
    }


USAGE = {"completion_tokens": 3, "prompt_tokens": 35, "total_tokens": 38}
CHUNKS = [
    chunk(None),
    chunk("Hello"),
    chunk(", world"),
    chunk(None, "stop"),
    {"id": "c1", "choices": [], "usage": USAGE, "timings": {"predicted_n": 3}},
]


def test_chunks_make_the_reply_of_a_plain_call():
    reply = streamed.assemble(CHUNKS)
    assert reply["choices"] == [
        {"index": 0, "message": {"role": "assistant", "content": "Hello, world"}, "finish_reason": "stop"}
    ]
    assert reply["usage"] == USAGE
    assert reply["timings"] == {"predicted_n": 3}
    assert reply["id"] == "c1"


def test_an_error_chunk_is_passed_on_for_the_callers_error_path():
    error = {"error": {"message": "context too long", "code": 400}}
    assert streamed.assemble([chunk("a"), error]) == error
    assert "error" in streamed.assemble([])
