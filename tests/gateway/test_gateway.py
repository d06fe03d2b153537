"""The gateway on the host: protocol, attribution, budgets, retries, replay."""

from __future__ import annotations

import json
import threading
import time

import httpx2
import openai
import pytest

from dgm.gateway import Budget, Gateway, Prices, RetryPolicy, make_upstream, request_hash
from dgm.gateway.replay import ReplayUpstream
from dgm.gateway.scripted import ScriptedUpstream
from dgm.gateway.upstream import UpstreamError
from tests.gateway.conftest import FAST_RETRY, HELLO


def ask(client, content="hi", **kw):
    return client.chat.completions.create(model="default", messages=[{"role": "user", "content": content}], **kw)


def test_models_name_the_upstream_and_its_tool_calling(make_gateway, openai_client):
    gw = make_gateway({**HELLO, "tool_calling": False})
    model = openai_client(gw, gw.issue_token()).models.list().data[0].model_dump()
    assert model["id"] == "scripted"
    assert model["dgm"]["upstream"] == "scripted"
    assert model["dgm"]["tool_calling"] is False
    assert "SCRIPTED test double" in model["dgm"]["note"]


def test_unknown_token_and_bad_requests_are_refused(make_gateway, openai_client):
    gw = make_gateway(HELLO)
    with pytest.raises(openai.AuthenticationError, match="unknown or revoked"):
        ask(openai_client(gw, "dgm-job-forged"))
    token = gw.issue_token()
    raw = httpx2.Client(transport=httpx2.HTTPTransport(uds=str(gw.socket_path)))
    bad = raw.post("http://gw/v1/chat/completions", content=b"{not json", headers={"Authorization": f"Bearer {token}"})
    assert bad.status_code == 400
    assert bad.json()["error"]["type"] == "invalid_request_error"
    missing = raw.get("http://gw/v1/nothing", headers={"Authorization": f"Bearer {token}"})
    assert missing.status_code == 404
    gw.revoke_token(token)
    with pytest.raises(openai.AuthenticationError):
        ask(openai_client(gw, token))


def test_completion_and_stream_are_metered_and_attributed(make_gateway, openai_client):
    bash_call = {"tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}]}
    script = {
        "model": "scripted-big",
        "rules": [
            {"when": {"last_contains": "tool"}, "reply": bash_call},
            {"when": {}, "reply": {"content": "hello from the script"}},
        ],
    }
    gw = make_gateway(script, prices=Prices({"scripted-big": (1000.0, 2000.0)}))
    client = openai_client(gw, gw.issue_token(job_id=None, node_id=None))
    reply = ask(client)
    assert reply.choices[0].message.content == "hello from the script"
    assert reply.model == "scripted-big"
    chunks = list(ask(client, "use a tool", stream=True, stream_options={"include_usage": True}))
    calls = [c.choices[0].delta.tool_calls for c in chunks if c.choices and c.choices[0].delta.tool_calls]
    assert calls[0][0].function.name == "bash"
    assert json.loads(calls[0][0].function.arguments) == {"command": "ls"}
    assert chunks[-1].usage.total_tokens > 0
    rows = gw.archive.fm_calls()
    assert [r.status for r in rows] == ["ok", "ok"]
    first = rows[0]
    assert (first.model, first.prompt_tokens, first.completion_tokens) == ("scripted-big", 6, 6)
    assert first.cost_usd == pytest.approx((6 * 1000 + 6 * 2000) / 1e6)
    assert first.request_hash == request_hash(
        {"model": "scripted-big", "messages": [{"role": "user", "content": "hi"}]}
    )
    recorded = json.loads(gw.archive.blob(first.response_blob))
    assert recorded["choices"][0]["message"]["content"] == "hello from the script"


def test_attribution_to_job_and_node(make_gateway, openai_client, tmp_path):
    gw = make_gateway(HELLO)
    with gw.archive_lock:
        seed = gw.archive.add_snapshot(tmp_path)
        node = gw.archive.add_node(None, seed)
        job = gw.archive.jobs.enqueue("expand", {"parent": node.id})
    ask(openai_client(gw, gw.issue_token(job_id=job.id, node_id=node.id)))
    (row,) = gw.archive.fm_calls(job_id=job.id)
    assert (row.job_id, row.node_id) == (job.id, node.id)


def test_job_budget_gives_a_clear_error_and_one_event(make_gateway, openai_client):
    gw = make_gateway(HELLO)
    client = openai_client(gw, gw.issue_token(budget=Budget(tokens=100)))
    answered = 0
    while answered < 20:
        try:
            ask(client)
        except openai.RateLimitError:
            break
        answered += 1
    assert 1 < answered < 20
    for _ in range(2):
        with pytest.raises(openai.RateLimitError) as err:
            ask(client)
        assert "job's budget of 100 tokens" in err.value.message
        assert "no call made" in err.value.message
        assert err.value.response.headers["x-should-retry"] == "false"
        assert err.value.body["type"] == "budget_exhausted"
    events = gw.archive.events("budget_exhausted")
    assert len(events) == 1
    assert events[0].data["scope"] == "job"
    calls = gw.archive.fm_calls()
    assert len(calls) == answered
    assert sum(c.prompt_tokens + c.completion_tokens for c in calls) <= 100
    ask(openai_client(gw, gw.issue_token()))  # another job still has budget


def test_run_budget_in_dollars_survives_a_restart(tmp_path, openai_client):
    from dgm.gateway.scripted import ScriptedUpstream

    prices = Prices({"scripted": (10_000.0, 10_000.0)})  # $0.01 per token
    with Gateway(ScriptedUpstream(HELLO), tmp_path / "a.db", run_budget=Budget(usd=1.0), prices=prices) as gw:
        client = openai_client(gw, gw.issue_token())
        with pytest.raises(openai.RateLimitError, match=r"run's budget of \$1"):  # noqa: PT012 (at some call)
            for _ in range(100):
                ask(client)
        spent = gw.run_usage.usd
    assert 0 < spent <= 1.0
    with Gateway(ScriptedUpstream(HELLO), tmp_path / "a.db", run_budget=Budget(usd=1.0), prices=prices) as gw:
        assert gw.run_usage.usd == pytest.approx(spent)  # read back from the archive
        with pytest.raises(openai.RateLimitError, match=r"run's budget of \$1"):
            ask(openai_client(gw, gw.issue_token()))


def test_429_and_500_are_retried_then_succeed(make_gateway, openai_client):
    script = {
        "rules": [
            {"when": {}, "reply": {"fault": "429", "retry_after": 0.3}, "times": 1},
            {"when": {}, "reply": {"fault": "500"}, "times": 1},
            {"when": {}, "reply": {"content": "finally"}},
        ]
    }
    gw = make_gateway(script)
    start = time.monotonic()
    assert ask(openai_client(gw, gw.issue_token())).choices[0].message.content == "finally"
    assert time.monotonic() - start >= 0.3  # Retry-After honoured
    (row,) = gw.archive.fm_calls()
    assert (row.status, row.attempts) == ("ok", 3)


@pytest.mark.parametrize("fault", [{"fault": "500"}, {"fault": "reset"}, {"fault": "hang", "seconds": 3}])
def test_persistent_faults_are_surfaced_after_the_retries(make_gateway, openai_client, fault):
    gw = make_gateway(
        {"rules": [{"when": {}, "reply": fault}]}, retry=RetryPolicy(attempts=2, base_s=0.01, timeout_s=0.5)
    )
    with pytest.raises(openai.APIStatusError) as err:
        ask(openai_client(gw, gw.issue_token()))
    assert err.value.status_code == 502
    assert "failed after 2 attempt(s)" in err.value.message
    (row,) = gw.archive.fm_calls()
    assert (row.status, row.attempts) == ("error", 2)
    assert row.error
    assert gw.archive.events("fm_error")[0].data["attempts"] == 2


def test_non_retryable_errors_are_not_retried(make_gateway, openai_client):
    gw = make_gateway({"rules": [{"when": {"last_contains": "never"}, "reply": {"content": "x"}}]})
    with pytest.raises(openai.BadRequestError, match="no rule matches"):
        ask(openai_client(gw, gw.issue_token()), "something else")
    assert gw.archive.fm_calls()[0].attempts == 1


def test_replay_answers_from_the_recorded_run(tmp_path, openai_client):
    from dgm.gateway.scripted import ScriptedUpstream

    script = {
        "rules": [
            {"when": {"turn": 0}, "reply": {"content": "first"}},
            {"when": {"turn": 1}, "reply": {"content": "second"}},
        ]
    }
    run = tmp_path / "run"
    run.mkdir()

    def follow_up(first_answer):
        return [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": first_answer},
            {"role": "user", "content": "more"},
        ]

    with Gateway(ScriptedUpstream(script), run / "archive.db") as gw:
        client = openai_client(gw, gw.issue_token())
        a = ask(client, "go").choices[0].message.content
        b = client.chat.completions.create(model="default", messages=follow_up(a)).choices[0].message.content
    with Gateway(ReplayUpstream(run), tmp_path / "replayed.db") as gw:
        client = openai_client(gw, gw.issue_token())
        assert ask(client, "go").choices[0].message.content == a == "first"
        again = client.chat.completions.create(model="default", messages=follow_up(a)).choices[0].message.content
        assert again == b == "second"
        with pytest.raises(openai.NotFoundError, match="replay"):
            ask(client, "go")  # recorded once, asked twice
        with pytest.raises(openai.NotFoundError):
            ask(client, "never recorded")


def test_upstream_registry_errors():
    with pytest.raises(UpstreamError, match="unknown model upstream 'gpt'"):
        make_upstream("gpt")
    with pytest.raises(UpstreamError, match="needs a script file"):
        make_upstream("scripted")
    with pytest.raises(ValueError, match="cannot read"):
        make_upstream("scripted:/nonexistent.json")


def test_a_configured_model_name_is_what_default_means(make_gateway, openai_client):
    gw = make_gateway(HELLO, model="other-model")
    client = openai_client(gw, gw.issue_token())
    assert [m.id for m in client.models.list().data] == ["other-model"]
    assert ask(client).model == "other-model"
    assert {c.model for c in gw.archive.fm_calls()} == {"other-model"}


def test_a_call_in_flight_when_the_gateway_closes_is_recorded_before_the_archive_closes(tmp_path, openai_client):
    from archive import Archive

    script = {"rules": [{"when": {}, "reply": {"fault": "hang", "seconds": 1.0, "content": "late but here"}}]}
    gw = Gateway(ScriptedUpstream(script), tmp_path / "archive.db", retry=FAST_RETRY).start()
    client = openai_client(gw, gw.issue_token(job_id=None, node_id=None))
    replies, errors = [], []

    def call() -> None:
        try:
            replies.append(ask(client).choices[0].message.content)
        except openai.APIError as exc:  # the test reads it below
            errors.append(exc)

    caller = threading.Thread(target=call)
    caller.start()
    time.sleep(0.3)  # the call is in the upstream now
    gw.close()
    caller.join(timeout=10)
    assert (replies, errors) == (["late but here"], [])
    with Archive(tmp_path / "archive.db") as archive:
        assert [c.status for c in archive.fm_calls()] == ["ok"]


def test_a_call_that_outlasts_the_grace_is_logged_not_crashed(tmp_path, openai_client, monkeypatch, caplog, capfd):
    from dgm.gateway import server

    monkeypatch.setattr(server, "CLOSE_GRACE_S", 0.1)
    script = {"rules": [{"when": {}, "reply": {"fault": "hang", "seconds": 1.0, "content": "too late"}}]}
    gw = Gateway(ScriptedUpstream(script), tmp_path / "archive.db", retry=FAST_RETRY).start()
    client = openai_client(gw, gw.issue_token(job_id=None, node_id=None))
    caller = threading.Thread(target=lambda: ask(client))
    caller.start()
    time.sleep(0.3)
    with caplog.at_level("WARNING", logger="dgm.gateway.server"):
        gw.close()
        assert "still in flight" in caplog.text
        caller.join(timeout=10)  # the upstream answers after the archive closed
    assert "ended after the gateway closed; not recorded" in caplog.text
    assert "Traceback" not in capfd.readouterr().err  # the request thread did not crash on the closed archive
