"""Prices (overrides, free upstreams, the genai-prices table) and token counts, offline."""

from __future__ import annotations

import socket

import pytest
from genai_prices import Usage, calc_price

from dgm.gateway import Budget, Gateway, GatewayError, Prices, tokens
from dgm.gateway.openai_upstream import OpenAIUpstream
from dgm.gateway.pricing import table_price
from dgm.gateway.scripted import ScriptedUpstream
from tests.gateway.conftest import HELLO


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a network connection was attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_the_table_prices_openai_models_offline(no_network):
    table_price.cache_clear()
    price = Prices().price("gpt-4o-mini")
    expected = calc_price(Usage(input_tokens=10**6, output_tokens=10**6), "gpt-4o-mini")
    assert (price.prompt, price.completion) == (float(expected.input_price), float(expected.output_price))
    assert price.source == "genai-prices (openai)"
    assert price.cost(1000, 2000) == pytest.approx(
        float(calc_price(Usage(input_tokens=1000, output_tokens=2000), "gpt-4o-mini").total_price)
    )
    assert Prices().price("a-house-model-nobody-prices") is None


def test_overrides_come_first_then_free_upstreams():
    prices = Prices({"gpt-4o-mini": (1.0, 3.0)})
    assert (prices.price("gpt-4o-mini").prompt, prices.price("gpt-4o-mini", free=True).completion) == (1.0, 3.0)
    assert Prices().price("gpt-4o-mini", free=True).cost(10**6, 10**6) == 0.0
    assert Prices(table=False).price("gpt-4o-mini") is None


def test_the_free_upstreams_say_so_and_the_paid_one_does_not():
    from dgm.gateway import UPSTREAMS

    assert {name: cls.free for name, cls in UPSTREAMS.items()} == {
        "openai": False,
        "embedded": True,
        "scripted": True,
        "replay": True,
    }


def test_a_dollar_budget_on_an_unpriced_model_refuses_to_start(tmp_path):
    upstream = OpenAIUpstream(base_url="http://127.0.0.1:9/v1", model="house-model")
    gateway = Gateway(upstream, run_budget=Budget(usd=5.0))
    folder = gateway.socket_path.parent
    with pytest.raises(GatewayError, match=r"--price house-model=IN,OUT"):
        gateway.start()
    assert not folder.exists(), "a gateway that could not start left its socket folder behind"
    priced = Gateway(upstream, run_budget=Budget(usd=5.0), prices=Prices({"house-model": (1.0, 2.0)}))
    with priced:
        assert priced.price("house-model").source == "--price"
        with pytest.raises(GatewayError, match=r"--price other-model=IN,OUT"):
            priced.issue_token(model="other-model")  # a job pinned to an unpriced model
    with Gateway(ScriptedUpstream(HELLO), run_budget=Budget(usd=5.0)) as free:
        assert free.price("scripted").cost(10**6, 10**6) == 0.0


TEXTS = [
    "def f(x):\n    return x * 2  # doubled\n" * 30,
    "Ünïcödé, 日本語のテキスト, emoji 🚀🔥 and    runs     of spaces\n\n\t",
    "a" * 5000,
    '{"json": [1, 2, 3], "nested": {"k": "v"}}',
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_estimate_never_counts_fewer_than_a_tokenizer(no_network, text):
    request = {"messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": text}]}
    estimate = tokens.prompt_tokens("some-local-model", request)
    assert not tokens.exact("some-local-model")
    for model in ("gpt-4o-mini", "gpt-4"):  # o200k_base, cl100k_base
        assert tokens.exact(model)
        assert estimate >= tokens.prompt_tokens(model, request)
    assert tokens.count_text("gpt-4o-mini", "hello world") == 2


def test_openai_names_map_to_their_encodings():
    names = {m: tokens.encoding_name(m) for m in ("gpt-4o-mini", "gpt-4.1", "o3-mini", "gpt-4", "gpt-3.5-turbo")}
    assert names == {
        "gpt-4o-mini": "o200k_base",
        "gpt-4.1": "o200k_base",
        "o3-mini": "o200k_base",
        "gpt-4": "cl100k_base",
        "gpt-3.5-turbo": "cl100k_base",
    }
    assert tokens.encoding_name("qwen2.5-coder") is None
