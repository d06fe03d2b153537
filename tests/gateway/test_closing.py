"""Closing an upstream that computes in this process: the gateway closes it within its grace,
it refuses calls from then on and waits for those in flight, and a process left with calls
decoding ends through `stopping.leave`, which runs no exit code (the embedded model's C++
destructors under its decoding thread were a segfault). Also what a slow embedded call's
time was spent on."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from dgm.gateway import Gateway, GatewayError, RetryPolicy, UpstreamError
from dgm.gateway.in_flight import Calls
from dgm.gateway.local_model import LocalUpstream, timing
from dgm.gateway.scripted import ScriptedUpstream
from tests.helpers import call_in_flight


def test_calls_are_refused_once_closing_began_and_those_in_flight_are_waited_for():
    calls = Calls()
    with call_in_flight(calls) as release:
        assert calls.close(0.1) is False
        assert calls.count == 1
        with pytest.raises(UpstreamError, match="shutting down"), calls.hold():
            pass
        threading.Timer(0.2, release.set).start()
        assert calls.close(5) is True
        assert calls.count == 0


class ClosingUpstream(ScriptedUpstream):
    def __init__(self, script):
        super().__init__(script)
        self.closed_with: list[float] = []

    def close(self, wait_s: float) -> int:
        self.closed_with.append(wait_s)
        return 0


def test_a_gateway_closes_its_upstream_within_its_grace():
    upstream = ClosingUpstream({"rules": [{"when": {}, "reply": {"content": "hi"}}]})
    with Gateway(upstream):
        pass
    assert len(upstream.closed_with) == 1
    assert 9 < upstream.closed_with[0] <= 10


class BusyUpstream(ScriptedUpstream):
    computes_here = True

    def load(self) -> str:
        return "the embedded model: 3 call(s) in flight on 2 decoding slot(s)"


def test_the_embedded_model_is_never_asked_twice_and_a_timeout_says_what_it_was_busy_with(tmp_path):
    """A call that timed out is still decoding there: a retry would queue behind it (the
    waits are covered on the test double in test_admission.py, which sets the same flag).
    The error the agent gets, and the archive keeps, says how busy the model was."""
    assert LocalUpstream.computes_here is True
    hang = {"rules": [{"when": {}, "reply": {"fault": "hang", "seconds": 2}}]}
    retry = RetryPolicy(attempts=2, base_s=0.01, max_s=0.05, timeout_s=0.3)
    with Gateway(BusyUpstream(hang), tmp_path / "archive.db", retry=retry) as gateway:
        grant = gateway.grant(gateway.issue_token())
        with pytest.raises(GatewayError, match=r"no answer within 0.6s \(the embedded model: 3 call\(s\) in flight"):
            gateway.complete(grant, {"messages": [{"role": "user", "content": "hi"}]})
        assert gateway.upstream.calls == 1
        ((error,),) = gateway.archive.db.execute("SELECT error FROM fm_calls").fetchall()
        assert "2 decoding slot(s)" in error


LEAVE = """
import atexit, sys
from dgm import stopping

class Busy:
    decoding = int(sys.argv[1])

atexit.register(lambda: print("exit hooks ran", flush=True))
stopping.leave(Busy(), 3, "Error: stopped")
print("went on", flush=True)
"""


def test_leave_ends_a_process_with_calls_decoding_at_once_and_one_without_not_at_all():
    gone = subprocess.run([sys.executable, "-c", LEAVE, "1"], capture_output=True, text=True, timeout=60)
    assert (gone.returncode, gone.stdout) == (3, "")
    assert gone.stderr.rstrip().endswith("Error: stopped")
    assert "still decodes 1 call" in gone.stderr
    stays = subprocess.run([sys.executable, "-c", LEAVE, "0"], capture_output=True, text=True, timeout=60)
    assert (stays.returncode, stays.stdout) == (0, "went on\nexit hooks ran\n")


def test_a_slow_embedded_calls_time_is_split_into_waiting_prompt_and_reply():
    reply = {
        "usage": {"dgm_seconds": 95.0},
        "timings": {"prompt_n": 10570, "prompt_ms": 60000.0, "cache_n": 12, "predicted_n": 80, "predicted_ms": 5000.0},
    }
    assert timing(reply) == {
        "total_s": 95.0,
        "queued_s": 30.0,
        "prompt_s": 60.0,
        "prompt_tokens": 10570,
        "cached_tokens": 12,
        "decode_s": 5.0,
        "decoded_tokens": 80,
    }
    assert timing({})["total_s"] == 0.0


def test_closing_waits_for_the_grace_only_while_calls_are_in_flight():
    calls = Calls()
    start = time.monotonic()
    assert calls.close(10) is True
    assert time.monotonic() - start < 1


class Abandonable(ScriptedUpstream):
    """The scripted upstream as one that can stop a call midway (`cancellable`): its call
    'decodes' until the gateway says no one waits for it, and records how long that took."""

    computes_here = cancellable = True

    def __init__(self, script):
        super().__init__(script)
        self.entered, self.stopped_after = threading.Event(), []

    def complete(self, request, timeout, abandoned=None):
        assert abandoned is not None  # the gateway passes it to an upstream that takes it
        self.entered.set()
        start = time.monotonic()
        while not abandoned() and time.monotonic() - start < 10:
            time.sleep(0.01)
        self.stopped_after.append(time.monotonic() - start)
        raise UpstreamError("abandoned by its caller", retryable=False)


def test_a_call_still_decoding_stops_when_its_job_ends(tmp_path):
    upstream = Abandonable({"rules": []})
    with Gateway(upstream, tmp_path / "archive.db", retry=RetryPolicy(attempts=1, timeout_s=30)) as gateway:
        token = gateway.issue_token()
        threading.Timer(0.3, gateway.revoke_token, args=(token,)).start()  # the job is over
        with pytest.raises(GatewayError, match="abandoned"):
            gateway.complete(gateway.grant(token), {"messages": [{"role": "user", "content": "hi"}]})
    (after,) = upstream.stopped_after
    assert 0.25 < after < 5


def test_a_call_the_gateway_gave_up_on_stops_decoding(tmp_path):
    upstream = Abandonable({"rules": []})
    retry = RetryPolicy(attempts=2, base_s=0.01, max_s=0.05, timeout_s=0.2)
    with Gateway(upstream, tmp_path / "archive.db", retry=retry) as gateway:
        with pytest.raises(GatewayError, match=r"no answer within 0.4s"):
            gateway.complete(gateway.grant(gateway.issue_token()), {"messages": [{"role": "user", "content": "hi"}]})
        deadline = time.monotonic() + 5
        while not upstream.stopped_after and time.monotonic() < deadline:
            time.sleep(0.01)
    (after,) = upstream.stopped_after
    assert 0.35 < after < 5


def _refused(gateway, grant) -> None:
    """A call that ends refused, as one stopped from outside does (run in a thread)."""
    with pytest.raises(GatewayError):
        gateway.complete(grant, {"messages": []})


def test_closing_the_gateway_stops_the_calls_still_decoding(tmp_path):
    upstream = Abandonable({"rules": []})
    gateway = Gateway(upstream, tmp_path / "archive.db", retry=RetryPolicy(attempts=1, timeout_s=30)).start()
    grant = gateway.grant(gateway.issue_token())
    call = threading.Thread(target=_refused, args=(gateway, grant))
    call.start()
    assert upstream.entered.wait(5)
    start = time.monotonic()
    gateway.close()
    call.join(5)
    assert time.monotonic() - start < 5
    assert len(upstream.stopped_after) == 1


def test_a_job_ending_stops_only_its_own_calls(tmp_path):
    """A job cannot cut another's call short: revoking one token (or an agent's own job
    ending) leaves the other job's call decoding."""
    upstream = Abandonable({"rules": []})
    with Gateway(upstream, tmp_path / "archive.db", retry=RetryPolicy(attempts=1, timeout_s=30)) as gateway:
        mine, other = gateway.issue_token(), gateway.issue_token()
        call = threading.Thread(target=_refused, args=(gateway, gateway.grant(other)))
        call.start()
        assert upstream.entered.wait(5)
        gateway.revoke_token(mine)
        time.sleep(0.5)
        assert upstream.stopped_after == []  # still decoding for its own job
        gateway.revoke_token(other)
        call.join(5)
    assert len(upstream.stopped_after) == 1
    assert upstream.stopped_after[0] >= 0.5
