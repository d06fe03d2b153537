"""What the gateway refuses or changes before a call reaches the upstream: the model pin,
n > 1, non-text content, the completion cap, the body size and the calls in flight."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time

import httpx2
import openai
import pytest

from dgm.gateway import Limits, RetryPolicy
from tests.gateway.conftest import HELLO

LONG = {"rules": [{"when": {}, "reply": {"content": "x" * 40_000}}]}  # about 10,000 tokens


def ask(client, model="default", content="hi", **kw):
    return client.chat.completions.create(model=model, messages=[{"role": "user", "content": content}], **kw)


def test_the_model_is_pinned_and_another_name_is_refused(make_gateway, openai_client):
    gw = make_gateway(HELLO, model="run-model")
    client = openai_client(gw, gw.issue_token())
    assert ask(client).model == "run-model"
    assert ask(client, model="run-model").model == "run-model"
    with pytest.raises(
        openai.BadRequestError, match="model 'gpt-4o' is not allowed here; this job may use 'run-model'"
    ):
        ask(client, model="gpt-4o")
    assert {c.model for c in gw.archive.fm_calls()} == {"run-model"}
    assert gw.upstream.calls == 2


def test_a_grant_can_pin_its_job_to_another_model(make_gateway, openai_client):
    gw = make_gateway(HELLO, model="run-model")
    client = openai_client(gw, gw.issue_token(model="judge-model"))
    assert ask(client).model == "judge-model"
    with pytest.raises(openai.BadRequestError, match="may use 'judge-model'"):
        ask(client, model="run-model")


def test_a_grant_names_the_roles_its_job_may_ask_for_and_records_each_calls_role(make_gateway, openai_client):
    gw = make_gateway(HELLO, model="run-model")
    improve = openai_client(gw, gw.issue_token(model="improver", role="improve", roles={"diagnose": "diagnoser"}))
    assert ask(improve).model == "improver"
    assert ask(improve, model="diagnose").model == "diagnoser"
    assert [(c.role, c.model) for c in gw.archive.fm_calls()] == [("improve", "improver"), ("diagnose", "diagnoser")]


def test_a_job_cannot_reach_a_role_it_was_not_granted(make_gateway, openai_client):
    """A task agent that wants a stronger model cannot ask for the meta agent's roles, by
    role name or by model name."""
    gw = make_gateway(HELLO, model="run-model")
    gw.issue_token(model="improver", role="improve", roles={"diagnose": "diagnoser"})
    solve = openai_client(gw, gw.issue_token(model="solver", role="solve"))
    for name in ("diagnose", "diagnoser", "improver", "improve"):
        with pytest.raises(openai.BadRequestError, match=f"model '{name}' is not allowed here"):
            ask(solve, model=name)
    assert gw.upstream.calls == 0


def test_without_a_configured_model_the_upstreams_first_is_pinned(make_gateway, openai_client):
    gw = make_gateway({**HELLO, "model": "scripted-only"})
    client = openai_client(gw, gw.issue_token())
    assert ask(client).model == "scripted-only"
    with pytest.raises(openai.BadRequestError, match="not allowed"):
        ask(client, model="something-else")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"n": 2}, "n = 2 is refused"),
        ({"max_tokens": 0}, "max_tokens = 0 is not a positive whole number"),
        ({"max_completion_tokens": "lots"}, "max_completion_tokens = 'lots'"),
    ],
)
def test_bad_parameters_are_refused_before_the_upstream(make_gateway, openai_client, extra, message):
    gw = make_gateway(HELLO)
    with pytest.raises(openai.BadRequestError, match=message):
        ask(openai_client(gw, gw.issue_token()), **extra)
    assert gw.upstream.calls == 0
    assert gw.archive.fm_calls() == []


def test_non_text_content_is_refused(make_gateway, openai_client):
    gw = make_gateway(HELLO)
    image = [{"type": "image_url", "image_url": {"url": "http://example.invalid/a.png"}}]
    with pytest.raises(openai.BadRequestError, match="only text"):
        ask(openai_client(gw, gw.issue_token()), content=image)
    assert gw.upstream.calls == 0


def test_the_gateway_sets_the_completion_cap(make_gateway, openai_client):
    gw = make_gateway(LONG, limits=Limits(max_call_tokens=100))
    client = openai_client(gw, gw.issue_token())
    unasked = ask(client)  # no max_tokens sent: the gateway's cap
    assert unasked.usage.completion_tokens == 100
    assert unasked.choices[0].finish_reason == "length"
    greedy = ask(client, max_tokens=1_000_000)
    assert greedy.usage.completion_tokens == 100
    modest = ask(client, max_completion_tokens=7)  # a lower cap of the agent's own stands
    assert modest.usage.completion_tokens == 7
    assert [c.completion_tokens for c in gw.archive.fm_calls()] == [100, 100, 7]


def _raw_post(gw, token: str, head_extra: str, body: bytes) -> bytes:
    """Send a hand-made request over the socket; return everything answered until it closes."""
    head = f"POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer {token}\r\n{head_extra}\r\n"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(60)
        sock.connect(str(gw.socket_path))
        sock.sendall(head.encode() + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_a_huge_body_gets_413_before_it_is_read(make_gateway):
    gw = make_gateway(HELLO)
    claimed = 200 * 2**20
    # Only 4 KiB of the 200 MB claimed are ever sent: the answer can only come if the
    # gateway refuses on the header, without waiting for (or holding) the body.
    answer = _raw_post(gw, gw.issue_token(), f"Content-Length: {claimed}\r\n", b"x" * 4096)
    assert answer.startswith(b"HTTP/1.1 413")
    assert f"request body of {claimed} bytes is over the {4 * 2**20}-byte limit".encode() in answer
    assert gw.upstream.calls == 0


def test_a_body_without_a_length_is_refused(make_gateway):
    gw = make_gateway(HELLO)
    chunked = _raw_post(gw, gw.issue_token(), "Transfer-Encoding: chunked\r\n", b"5\r\nhello\r\n0\r\n\r\n")
    assert chunked.startswith(b"HTTP/1.1 411")
    missing = _raw_post(gw, gw.issue_token(), "Connection: close\r\n", b"")
    assert missing.startswith(b"HTTP/1.1 411")


def test_a_body_within_the_cap_is_served(make_gateway):
    gw = make_gateway(HELLO, limits=Limits(max_request_bytes=1000))
    raw = httpx2.Client(transport=httpx2.HTTPTransport(uds=str(gw.socket_path)))
    headers = {"Authorization": f"Bearer {gw.issue_token()}"}
    small = {"messages": [{"role": "user", "content": "hi"}]}  # no model at all: the pinned one
    answer = raw.post("http://gw/v1/chat/completions", json=small, headers=headers)
    assert answer.status_code == 200
    assert answer.json()["model"] == "scripted"
    big = {"model": "default", "messages": [{"role": "user", "content": "y" * 2000}]}
    assert raw.post("http://gw/v1/chat/completions", json=big, headers=headers).status_code == 413


def test_calls_in_flight_per_job_are_capped(make_gateway, openai_client):
    slow = {"rules": [{"when": {"last_contains": "slow"}, "reply": {"fault": "hang", "seconds": 2, "content": "ok"}}]}
    gw = make_gateway(slow, limits=Limits(job_concurrency=2), retry=RetryPolicy(attempts=1, timeout_s=30))
    token = gw.issue_token()
    answers: list[str] = []
    threads = [
        threading.Thread(target=lambda: answers.append(ask(openai_client(gw, token), content="slow").id))
        for _ in range(2)
    ]
    for t in threads:
        t.start()
    while gw.upstream.calls < 2:  # both calls have reached the upstream and are held there
        threads[0].join(0.01)
    with pytest.raises(openai.RateLimitError, match="2 model calls in flight, the most it may have"):
        ask(openai_client(gw, token), content="slow")
    for t in threads:
        t.join()
    assert len(answers) == 2
    assert gw.upstream.calls == 2
    assert ask(openai_client(gw, token), content="slow").choices[0].message.content == "ok"


def test_a_client_that_leaves_before_its_answer_is_no_error(make_gateway, openai_client, capfd):
    """An agent whose sandbox is closed mid-call (a solve timeout) leaves the gateway
    writing to a closed socket: it logs that the client left, prints no traceback, and
    goes on serving."""
    slow = {"rules": [{"when": {"contains": "slow"}, "reply": {"fault": "hang", "seconds": 1, "content": "late"}}]}
    gw = make_gateway({"rules": [*slow["rules"], *HELLO["rules"]]})
    body = json.dumps({"model": "default", "messages": [{"role": "user", "content": "slow"}]}).encode()
    head = (
        f"POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer {gw.issue_token()}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(str(gw.socket_path))
        sock.sendall(head.encode() + body)
    time.sleep(2.5)  # the answer is written to the closed socket
    assert ask(openai_client(gw, gw.issue_token())).choices[0].message.content == "hello from the script"
    err = capfd.readouterr().err
    assert "Traceback" not in err
    assert "Exception occurred" not in err


def test_a_timed_out_call_to_an_upstream_on_this_machine_is_waited_for_not_asked_again(make_gateway, openai_client):
    """The embedded model keeps decoding a call that timed out; asking again would only
    queue the same work behind it (a thrash under load). Its next tries wait for that call
    instead: a reply that outlasts one timeout still reaches the agent, and the upstream is
    asked once. Remote upstreams are asked again."""
    late = {"rules": [{"when": {}, "reply": {"fault": "hang", "seconds": 1.2, "content": "late but here"}}]}
    gw = make_gateway(late, retry=RetryPolicy(attempts=4, base_s=0.01, max_s=0.05, timeout_s=0.5))
    gw.upstream.computes_here = True
    assert ask(openai_client(gw, gw.issue_token())).choices[0].message.content == "late but here"
    assert gw.upstream.calls == 1
    hang = {"rules": [{"when": {}, "reply": {"fault": "hang", "seconds": 3}}]}
    gw = make_gateway(hang, retry=RetryPolicy(attempts=3, base_s=0.01, max_s=0.05, timeout_s=0.5))
    gw.upstream.computes_here = True
    with pytest.raises(openai.APIStatusError, match=r"failed after 3 attempt\(s\): no answer within 1.5s"):
        ask(openai_client(gw, gw.issue_token()))
    assert gw.upstream.calls == 1
    remote = make_gateway(hang, retry=RetryPolicy(attempts=2, base_s=0.01, max_s=0.05, timeout_s=0.5))
    with pytest.raises(openai.APIStatusError, match=r"failed after 2 attempt\(s\)"):
        ask(openai_client(remote, remote.issue_token()))
    assert remote.upstream.calls == 2


CLOSE_AND_EXIT = """
import sys, threading, time
from dgm.gateway import Gateway, RetryPolicy
from dgm.gateway.probe import ask
from dgm.gateway.scripted import ScriptedUpstream

hang = {"rules": [{"when": {}, "reply": {"fault": "hang", "seconds": 3600}}]}
gw = Gateway(ScriptedUpstream(hang), sys.argv[1], retry=RetryPolicy(attempts=1, timeout_s=3600)).start()
gw.upstream.computes_here = True
threading.Thread(target=ask, args=(gw, "hi"), daemon=True).start()
while gw.upstream.calls == 0:
    time.sleep(0.05)
gw.close()
print("closed", flush=True)
"""


def test_a_process_whose_gateway_closed_exits_while_a_call_on_this_machine_still_decodes(tmp_path):
    """The embedded model's calls cannot be cancelled: a stopped run whose killed jobs left
    calls decoding used to stay alive until they ended (minutes, and a second Ctrl-C)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CLOSE_AND_EXIT, str(tmp_path / "archive.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"the process did not exit after its gateway closed; it printed {out!r}")
    assert (proc.returncode, out) == (0, "closed\n"), err
