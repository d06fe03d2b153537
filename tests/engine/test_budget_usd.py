"""`dgm evolve --budget-usd` against a real OpenAI-compatible HTTP server on 127.0.0.1 (it
answers from the SCRIPTED test double, with usage, as model gpt-4o-mini): priced from the
genai-prices table, and stopped by the dollar budget alone."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from genai_prices import Usage, calc_price

from archive import Archive
from dgm.cli import main
from dgm.engine.status import spend_by_model
from dgm.gateway import Limits
from dgm.gateway.scripted import ScriptedUpstream
from tests.conftest import require
from tests.engine.conftest import SCRIPT, evolve_args, make_engine_env
from tests.engine.test_openai_endpoint import serve

BUDGET = 0.001
NO_OTHER_LIMIT = ("--max-evals", "1000000")  # the default (200) must not stop it first


def price(prompt_tokens: int, completion_tokens: int) -> float:
    """What the genai-prices table says such a call of gpt-4o-mini costs."""
    usage = Usage(input_tokens=prompt_tokens, output_tokens=completion_tokens)
    return float(calc_price(usage, "gpt-4o-mini").total_price)


@pytest.fixture(scope="module")
def dollar_run(tmp_path_factory, availability):
    """One run stopped by --budget-usd alone (made once, read by the tests below): its folder,
    its output and its model calls."""
    require("bwrap", availability)
    root = tmp_path_factory.mktemp("budget")
    root.chmod(0o755)
    tasks, _ = make_engine_env(root)
    server = serve(ScriptedUpstream({**SCRIPT, "model": "gpt-4o-mini"}))
    url = f"http://127.0.0.1:{server.server_port}/v1"
    run = root / "run"
    args = ["--model", "gpt-4o-mini", "--budget-usd", str(BUDGET), "--workers", "2", *NO_OTHER_LIMIT]
    try:
        result = CliRunner().invoke(main, evolve_args(run, tasks, f"openai:{url}", *args))
    finally:
        server.shutdown()
    assert result.exit_code == 0, result.output
    with Archive.for_run(run) as ar:
        calls = ar.fm_calls()
    return run, result.output, calls


def spend_line(calls) -> str:
    """The line `dgm status` and the report give the model's spend."""
    prompt, completion = sum(c.prompt_tokens for c in calls), sum(c.completion_tokens for c in calls)
    spent = sum(c.cost_usd for c in calls)
    return f"gpt-4o-mini: {len(calls)} calls, {prompt} prompt + {completion} completion tokens, ${spent:.6f}"


def test_a_dollar_budget_alone_stops_the_run(dollar_run):
    _, out, calls = dollar_run
    assert f"stopped      --budget-usd {BUDGET:g} spent" in out
    assert calls
    assert {(c.model, c.status) for c in calls} == {("gpt-4o-mini", "ok")}


def test_each_call_is_priced_from_the_genai_prices_table(dollar_run):
    _, _, calls = dollar_run
    assert calls
    expected = [price(c.prompt_tokens, c.completion_tokens) for c in calls]
    assert [c.cost_usd for c in calls] == pytest.approx(expected)


def test_the_spend_holds_within_the_dollar_budget(dollar_run):
    _, _, calls = dollar_run
    spent = sum(c.cost_usd for c in calls)
    one_clamped_call = price(max(c.prompt_tokens for c in calls), Limits().max_call_tokens)
    assert 0 < spent <= BUDGET + one_clamped_call
    assert spent <= BUDGET + 1e-12  # holds against the budget: not even one call over


def test_status_json_gives_the_spend_per_model(dollar_run):
    run, _, calls = dollar_run
    status = json.loads(CliRunner().invoke(main, ["status", "--run", str(run), "--json"]).output)
    assert status["spend"] == [
        {
            "model": "gpt-4o-mini",
            "calls": len(calls),
            "prompt_tokens": sum(c.prompt_tokens for c in calls),
            "completion_tokens": sum(c.completion_tokens for c in calls),
            "usd": round(sum(c.cost_usd for c in calls), 6),
            "tokens_per_s": round(sum(c.completion_tokens for c in calls) / sum(c.latency_s for c in calls), 1),
        }
    ]


def test_status_shows_the_spend_per_model(dollar_run):
    run, _, calls = dollar_run
    assert spend_line(calls) in CliRunner().invoke(main, ["status", "--run", str(run)]).output


def test_the_report_shows_the_spend_per_model(dollar_run, tmp_path):
    run, _, calls = dollar_run
    CliRunner().invoke(main, ["report", "--run", str(run), "--out", str(tmp_path / "report.html")])
    assert spend_line(calls) in (tmp_path / "report.html").read_text()


def test_a_dollar_budget_on_an_unpriced_model_does_not_start(bwrap, engine_env, tmp_path):
    tasks, _ = engine_env
    run = tmp_path / "run"
    fm = "openai:http://127.0.0.1:9/v1"
    result = CliRunner().invoke(main, evolve_args(run, tasks, fm, "--model", "house-model", "--budget-usd", "1"))
    assert result.exit_code != 0
    assert "--price house-model=IN,OUT" in result.output
    with Archive.for_run(run) as ar:
        assert ar.fm_calls() == []


def test_a_bad_price_flag_is_named(engine_env, tmp_path):
    tasks, _ = engine_env
    result = CliRunner().invoke(main, evolve_args(tmp_path / "run", tasks, "scripted:x", "--price", "gpt-4o=cheap"))
    assert result.exit_code == 2
    assert "expected MODEL=IN,OUT" in result.output


def test_status_gives_each_models_speed(tmp_path):
    """Completion tokens per second of call time, per model (what a local run's user
    watches); a model whose calls took no time shows none."""
    with Archive.for_run(tmp_path / "run", create=True) as ar:
        for completion, latency in ((100, 4.0), (60, 4.0)):
            ar.add_fm_call(model="embedded-m", completion_tokens=completion, latency_s=latency, request_hash="h")
        ar.add_fm_call(model="instant", completion_tokens=5, latency_s=0.0, request_hash="i")
        spend = {m["model"]: m for m in spend_by_model(ar)}
    assert spend["embedded-m"]["tokens_per_s"] == 20.0
    assert spend["instant"]["tokens_per_s"] is None
