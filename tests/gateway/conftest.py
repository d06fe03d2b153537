"""Gateway fixtures: a gateway over the SCRIPTED upstream (the test double), with an archive."""

from __future__ import annotations

import pytest

from dgm.gateway import Gateway, RetryPolicy
from dgm.gateway.probe import client
from dgm.gateway.scripted import ScriptedUpstream

FAST_RETRY = RetryPolicy(attempts=3, base_s=0.01, max_s=0.05, timeout_s=2.0)


@pytest.fixture
def make_gateway(tmp_path):
    made = []

    def make(script: dict, **kw) -> Gateway:
        kw.setdefault("retry", FAST_RETRY)
        gateway = Gateway(ScriptedUpstream(script), tmp_path / f"archive{len(made)}.db", **kw).start()
        made.append(gateway)
        return gateway

    yield make
    for gateway in made:
        gateway.close()


@pytest.fixture
def openai_client():
    return client


HELLO = {"rules": [{"when": {}, "reply": {"content": "hello from the script"}}]}
