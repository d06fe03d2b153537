"""A worker node's relay gateway in front of the driver's real gateway (SCRIPTED upstream,
the test double), spoken to by the real openai client: replies, streams, refusals and
budgets pass through unchanged and each call is metered once, by the driver."""

from __future__ import annotations

import openai
import pytest

from dgm.executors.relay import Relay, forward_to_socket
from dgm.gateway import Budget
from dgm.gateway.probe import client
from tests.gateway.conftest import HELLO


def relay_to(gateway) -> Relay:
    return Relay(lambda *request: forward_to_socket(gateway.socket_path, request, timeout=30))


def ask(c, **kw):
    return c.chat.completions.create(model="default", messages=[{"role": "user", "content": "hi"}], **kw)


def test_calls_and_streams_pass_through_and_are_metered_once(make_gateway):
    gw = make_gateway(HELLO)
    token = gw.issue_token(job_id=None, node_id=None)
    with relay_to(gw) as relay:
        c = client(relay, token)
        assert ask(c).choices[0].message.content == "hello from the script"
        chunks = list(ask(c, stream=True, stream_options={"include_usage": True}))
        text = "".join(ch.choices[0].delta.content or "" for ch in chunks if ch.choices)
        assert text == "hello from the script"
        assert c.models.list().data[0].id == "scripted"
    assert len(gw.archive.fm_calls()) == 2


def test_refusals_keep_their_status_and_headers(make_gateway):
    gw = make_gateway(HELLO)
    with relay_to(gw) as relay:
        with pytest.raises(openai.AuthenticationError, match="unknown or revoked"):
            ask(client(relay, "dgm-job-forged"))
        poor = gw.issue_token(job_id=None, node_id=None, budget=Budget(tokens=1))
        with pytest.raises(openai.RateLimitError) as refused:
            ask(client(relay, poor))  # the prompt alone does not fit: refused before it is sent
        assert refused.value.response.headers["x-should-retry"] == "false"


def test_a_broken_hop_is_a_clear_502_for_the_agent():
    def broken(*request):
        raise ConnectionError("the driver is gone")

    with (
        Relay(broken) as relay,
        pytest.raises(openai.InternalServerError, match="could not reach the driver's: ConnectionError"),
    ):
        ask(client(relay, "dgm-job-x"))
