"""Model faults: each is retried or surfaced to the agent as a clear error, counted in
`dgm status`, and never crashes the engine."""

from __future__ import annotations

import json

import openai
import pytest
from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from dgm.gateway import Gateway, RetryPolicy
from dgm.gateway.openai_upstream import OpenAIUpstream
from dgm.gateway.probe import client
from tests.engine.conftest import SCRIPT, evolve_args
from tests.reliability.fault_server import FAULTS, FaultServer

HELLO = {"rules": [{"when": {}, "reply": {"content": "hello"}}]}


@pytest.mark.faults
@pytest.mark.parametrize("fault", FAULTS)
def test_each_fault_is_retried_or_surfaced(fault, tmp_path):
    server = FaultServer(HELLO, lambda n: fault if n == 0 else None, hang_s=3)
    retry = RetryPolicy(attempts=3, base_s=0.05, timeout_s=1.5)
    try:
        with Gateway(OpenAIUpstream(server.url, "sk-test"), tmp_path / "a.db", retry=retry) as gw:
            c = client(gw, gw.issue_token())
            if fault == "oversized":  # not worth retrying: surfaced at once, with the reason
                with pytest.raises(openai.APIStatusError) as err:
                    c.chat.completions.create(model="default", messages=[{"role": "user", "content": "hi"}])
                assert err.value.status_code == 502
                assert "over the gateway's" in err.value.message
                (row,) = gw.archive.fm_calls()
                assert (row.status, row.attempts) == ("error", 1)
            else:
                reply = c.chat.completions.create(model="default", messages=[{"role": "user", "content": "hi"}])
                assert reply.choices[0].message.content == "hello"
                (row,) = gw.archive.fm_calls()
                assert (row.status, row.attempts) == ("ok", 2)
    finally:
        server.close()
    assert server.injected[fault] == 1


@pytest.mark.faults
def test_a_run_goes_on_through_every_kind_of_fault(bwrap, engine_env, tmp_path):
    tasks, _ = engine_env
    cycle = (*FAULTS, None, None)  # every request but two in nine is a fault, in turn

    server = FaultServer(SCRIPT, lambda n: cycle[n % len(cycle)], hang_s=4)
    run = tmp_path / "run"
    try:
        result = CliRunner().invoke(
            main,
            evolve_args(
                run,
                tasks,
                f"openai:{server.url}",
                "--max-expansions",
                "2",
                "--max-evals",
                "9",
                "--workers",
                "2",
                "--fm-attempts",
                "4",
                "--fm-timeout",
                "2",
                "--fm-backoff",
                "0.05",
            ),
            env={"OPENAI_API_KEY": "sk-test"},
        )
    finally:
        server.close()
    assert result.exit_code == 0, result.output
    assert set(server.injected) == set(FAULTS)
    status = json.loads(CliRunner().invoke(main, ["status", "--run", str(run), "--json"]).output)
    assert status["expansions"] == 2
    assert status["evaluations"] == 3 * status["valid"]
    assert status["fm_retried"] > 0
    assert status["fm_errors"] >= 1
    with Archive.for_run(run) as ar:
        assert ar.integrity_check() == []
        errors = [c.error for c in ar.fm_calls() if c.status == "error"]
    assert any("over the gateway's" in e for e in errors)  # and runs of faults past the retries: surfaced too
