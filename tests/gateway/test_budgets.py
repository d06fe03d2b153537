"""Budgets hold: a prompt that does not fit is never sent, completions are cut to what is
left, calls in flight together cannot overspend, and an upstream that reports no usage is
not free."""

from __future__ import annotations

import threading

import openai
import pytest

from dgm.gateway import Budget, Limits, Prices, tokens
from dgm.gateway.probe import call_until_refused
from tests.gateway.conftest import HELLO

CLAMP = 500
# Every answer is as long as it may be, and the upstream claims a huge completion (it is
# reported as the cap, as a real model cannot produce more than max_tokens).
GREEDY = {"rules": [{"when": {}, "reply": {"content": "x" * 400_000, "usage": {"completion_tokens": 52_000_000}}}]}


def spent(gw, job_id=None) -> tuple[int, float]:
    calls = [c for c in gw.archive.fm_calls() if job_id is None or c.job_id == job_id]
    return sum(c.prompt_tokens + c.completion_tokens for c in calls), sum(c.cost_usd for c in calls)


def jobs(gw, n: int) -> list[int]:
    with gw.archive_lock:
        return [gw.archive.jobs.enqueue("evaluate", {}).id for _ in range(n)]


def test_token_budgets_are_not_overshot_by_concurrent_greedy_calls(make_gateway):
    gw = make_gateway(GREEDY, limits=Limits(max_call_tokens=CLAMP), run_budget=Budget(tokens=9_000))
    ids = jobs(gw, 3)
    grants = {job: gw.issue_token(job_id=job, budget=Budget(tokens=4_000)) for job in ids}
    refusals = call_until_refused(gw, grants.values(), threads_per_token=4)
    assert len(refusals) == 12
    assert all("no call made" in r or "is spent" in r for r in refusals)
    for job in ids:
        assert spent(gw, job)[0] <= 4_000 + CLAMP  # the promise: at most one clamped call over
        assert spent(gw, job)[0] <= 4_000  # what holding calls in flight achieves: none over
    assert spent(gw)[0] <= 9_000
    assert spent(gw)[0] == gw.run_usage.tokens
    assert max(c.completion_tokens for c in gw.archive.fm_calls()) == CLAMP


def test_a_dollar_budget_is_not_overshot(make_gateway):
    prices = Prices({"scripted": (2.0, 8.0)})
    gw = make_gateway(GREEDY, limits=Limits(max_call_tokens=CLAMP), run_budget=Budget(usd=0.05), prices=prices)
    grants = {job: gw.issue_token(job_id=job) for job in jobs(gw, 2)}
    refusals = call_until_refused(gw, grants.values(), threads_per_token=4)
    assert len(refusals) == 8
    assert all("run's budget of $0.05" in r for r in refusals)
    one_call = max(c.cost_usd for c in gw.archive.fm_calls())
    _tokens_used, usd = spent(gw)
    assert usd <= 0.05 + one_call
    assert usd <= 0.05 + 1e-12
    assert usd == pytest.approx(gw.run_usage.usd)
    assert gw.archive.events("budget_exhausted")[0].data["scope"] == "run"


def test_a_prompt_bigger_than_what_is_left_is_never_sent(make_gateway, openai_client):
    gw = make_gateway(HELLO)
    client = openai_client(gw, gw.issue_token(budget=Budget(tokens=1_000)))
    huge = "word " * 600_000  # 3 MB: about 52 million tokens' worth was let through before
    with pytest.raises(openai.RateLimitError, match="does not fit what is left of the job's budget of 1000 tokens"):
        client.chat.completions.create(model="default", messages=[{"role": "user", "content": huge}])
    assert gw.upstream.calls == 0
    assert gw.archive.fm_calls() == []


def test_an_upstream_reporting_no_usage_is_charged_the_gateways_figures(make_gateway, openai_client):
    silent = {
        "rules": [{"when": {}, "reply": {"content": "hi", "usage": {"prompt_tokens": 0, "completion_tokens": 0}}}]
    }
    gw = make_gateway(silent, limits=Limits(max_call_tokens=300))
    request = {"model": "scripted", "messages": [{"role": "user", "content": "hello"}]}
    openai_client(gw, gw.issue_token()).chat.completions.create(**request)
    (call,) = gw.archive.fm_calls()
    assert (call.prompt_tokens, call.completion_tokens) == (tokens.prompt_tokens("scripted", request), 300)


def test_with_a_tokenizer_the_prompt_is_never_charged_below_its_count(make_gateway, openai_client):
    under = {"model": "gpt-4o-mini", "rules": [{"when": {}, "reply": {"content": "ok", "usage": {"prompt_tokens": 1}}}]}
    gw = make_gateway(under)
    request = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "count these words please " * 20}]}
    openai_client(gw, gw.issue_token()).chat.completions.create(**request)
    (call,) = gw.archive.fm_calls()
    assert call.prompt_tokens == tokens.prompt_tokens("gpt-4o-mini", request) > 80


def test_a_call_that_calls_in_flight_would_cut_waits_for_them():
    from dgm.gateway.errors import BudgetRefused
    from dgm.gateway.ledger import Ledger
    from dgm.gateway.pricing import Price

    free = Price(0.0, 0.0, "test")
    ledger = Ledger(Budget(tokens=1000), (0, 0.0), job_concurrency=4)
    first = ledger.admit(1, Budget(), prompt=100, cap=800, price=free, wait_s=0)
    assert first.completion == 800
    with pytest.raises(BudgetRefused) as refused:  # not willing to wait: refused, but not for good
        ledger.admit(2, Budget(), prompt=100, cap=800, price=free, wait_s=0)
    assert refused.value.wait
    assert not refused.value.final
    held: list = []
    waiter = threading.Thread(target=lambda: held.append(ledger.admit(2, Budget(), 100, 800, free, wait_s=60)))
    waiter.start()
    ledger.settle(first, 150, 0.0)  # the first call used far less than it held
    waiter.join()
    assert held[0].completion == 1000 - 150 - 100


def test_a_run_budget_that_pays_for_nothing_asked_ends_the_run_but_one_job_cannot_end_it(make_gateway, openai_client):
    """Money left but every prompt too big for it: after three different jobs in a row are
    refused, the run is told its budget is spent (else it would go on making refused jobs
    forever). One job's refusals, however many, end nothing; an admitted call resets the count."""
    ended: list[str] = []
    prices = Prices({"scripted": (10.0, 10.0)})
    gw = make_gateway(  # a full-size call (100 + 100 tokens, $0.002) fits what is left; the prompts do not
        HELLO,
        run_budget=Budget(usd=0.01),
        prices=prices,
        limits=Limits(max_call_tokens=100),
        on_run_budget_spent=ended.append,
    )
    ids = jobs(gw, 4)
    clients = [openai_client(gw, gw.issue_token(job_id=job)) for job in ids]
    big = [{"role": "user", "content": "word " * 2_000}]  # about $0.1 at the conservative estimate
    small = [{"role": "user", "content": "hi"}]

    def refused(client) -> bool:
        try:
            client.chat.completions.create(model="default", messages=big)
        except openai.RateLimitError:
            return True
        return False

    assert all(refused(clients[0]) for _ in range(5))
    assert ended == []
    assert refused(clients[1])
    assert ended == []
    clients[2].chat.completions.create(model="default", messages=small)  # admitted: the count starts again
    assert refused(clients[2])
    assert refused(clients[3])
    assert ended == []
    assert refused(clients[0])
    assert len(ended) == 1
    assert "cannot pay for the calls the agents make" in ended[0]
