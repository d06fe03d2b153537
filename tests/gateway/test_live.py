"""The gateway's live figures (`Gateway.live`): a call still in flight shows (its age, its
counted prompt, what the upstream says it decoded so far) before it is charged."""

from __future__ import annotations

import concurrent.futures
import threading
import time

from dgm.gateway import Gateway, RetryPolicy
from dgm.gateway.probe import client
from dgm.gateway.scripted import ScriptedUpstream
from tests.gateway.conftest import HELLO


class Blocking(ScriptedUpstream):
    """The scripted upstream, held mid-call until released; `decoded` is what it says its
    calls in flight have decoded (None: it offers no such figure)."""

    def __init__(self, script: dict, decoded: int | None = None):
        super().__init__(script)
        self.entered, self.release = threading.Event(), threading.Event()
        if decoded is not None:
            self.decoded_tokens = lambda: decoded

    def complete(self, request, timeout):
        self.entered.set()
        assert self.release.wait(20)
        return super().complete(request, timeout)


def ask(gw: Gateway, token: str) -> str:
    reply = client(gw, token).chat.completions.create(
        model="default", messages=[{"role": "user", "content": "please count the tokens of this prompt"}]
    )
    return reply.choices[0].message.content


def in_flight(upstream: Blocking, job_id: int = 7):
    """The live figures of job `job_id` and the run while its one call is held, and after."""
    with Gateway(upstream, retry=RetryPolicy(attempts=1, timeout_s=20)) as gw:
        token = gw.issue_token(job_id)
        idle = gw.live([job_id])
        assert idle.calls_in_flight == 0
        assert idle.tokens_in_flight == 0
        assert idle.jobs[job_id].calls == 0
        assert not idle.jobs[job_id].in_flight
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            answer = pool.submit(ask, gw, token)
            assert upstream.entered.wait(20)
            time.sleep(0.3)
            during = gw.live([job_id])
            upstream.release.set()
            assert answer.result(timeout=20) == "hello from the script"
        return during, gw.live([job_id])


def test_a_call_held_mid_answer_shows_with_its_age_and_counted_prompt():
    during, after = in_flight(Blocking(HELLO))
    assert during.spent.tokens == 0  # nothing charged yet ...
    assert during.calls_in_flight == 1
    assert during.tokens_in_flight > 0
    job = during.jobs[7]
    (call,) = job.in_flight
    assert call.age_s >= 0.2
    assert call.prompt == during.tokens_in_flight
    assert call.decoded is None
    assert call.cap > 0
    assert job.calls == 0
    assert job.waiting == 0
    assert after.calls_in_flight == 0
    assert after.tokens_in_flight == 0
    assert after.jobs[7].calls == 1
    assert after.jobs[7].spent.tokens > 0
    assert not after.jobs[7].in_flight


def test_what_the_upstream_decoded_so_far_counts_in_flight():
    during, _ = in_flight(Blocking(HELLO, decoded=42))
    (call,) = during.jobs[7].in_flight
    assert call.decoded == 42
    assert during.tokens_in_flight == call.prompt + 42


def test_reading_the_figures_of_unknown_jobs_changes_nothing():
    with Gateway(Blocking(HELLO)) as gw:
        live = gw.live([99, None])
        assert live.jobs == {}
        assert live.calls_in_flight == 0
        assert gw.ledger.jobs == {}


def test_a_job_given_a_new_token_starts_from_the_calls_it_made_before(tmp_path):
    with Gateway(Blocking(HELLO), tmp_path / "archive.db") as gw:
        first, other = (gw.archive.jobs.enqueue("evaluate", {"task": t}).id for t in ("t1", "t2"))
        for job_id, calls in ((first, 3), (other, 1)):
            for _ in range(calls):
                gw.archive.add_fm_call(
                    job_id=job_id, request_hash="h", model="m", prompt_tokens=10, completion_tokens=4
                )
        gw.issue_token(first)
        figures = gw.live([first]).jobs[first]
        assert figures.calls == 3
        assert figures.spent.tokens == 42
        assert gw.archive.fm_call_count() == 4
        assert gw.archive.fm_call_count(other) == 1
