"""The job table: claim, heartbeat, finish/fail, and recovery of stale work."""

from __future__ import annotations

import pytest

from archive import Archive, JobStateError


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def jobs(tmp_path, clock):
    with Archive(tmp_path / "a.db", clock=clock) as ar:
        yield ar.jobs


def test_claim_takes_oldest_queued_job(jobs):
    first = jobs.enqueue("evaluate", {"node": 1, "task": "a"})
    jobs.enqueue("expand", {"parent": 1})
    claimed = jobs.claim("w1")
    assert claimed.id == first.id
    assert claimed.state == "running"
    assert claimed.worker == "w1"
    assert claimed.attempts == 1
    assert jobs.claim("w2", kinds=["evaluate"]) is None
    assert jobs.claim("w2", kinds=["expand"]).kind == "expand"
    assert jobs.claim("w3") is None


def test_finish_records_result(jobs):
    job = jobs.enqueue("evaluate", {"x": 1})
    jobs.claim("w1")
    done = jobs.finish(job.id, "w1", {"resolved": True})
    assert done.state == "done"
    assert done.result == {"resolved": True}
    assert jobs.counts() == {"queued": 0, "running": 0, "done": 1, "failed": 0}


def test_only_the_holder_may_heartbeat_or_finish(jobs):
    job = jobs.enqueue("evaluate", {})
    jobs.claim("w1")
    with pytest.raises(JobStateError, match="not running for 'w2'"):
        jobs.heartbeat(job.id, "w2")
    with pytest.raises(JobStateError):
        jobs.finish(job.id, "w2")
    jobs.finish(job.id, "w1")
    with pytest.raises(JobStateError, match="is done"):
        jobs.finish(job.id, "w1")


def test_fail_requeues_until_attempts_run_out(jobs):
    job = jobs.enqueue("expand", {}, max_attempts=2)
    jobs.claim("w1")
    again = jobs.fail(job.id, "w1", "sandbox crashed")
    assert again.state == "queued"
    assert again.error == "sandbox crashed"
    assert again.worker is None
    jobs.claim("w2")
    final = jobs.fail(job.id, "w2", "sandbox crashed again")
    assert final.state == "failed"
    assert final.attempts == 2


def test_fail_without_retry_is_final(jobs):
    job = jobs.enqueue("expand", {}, max_attempts=5)
    jobs.claim("w1")
    assert jobs.fail(job.id, "w1", "invalid payload", retry=False).state == "failed"


def test_recover_stale_requeues_silent_jobs_only(jobs, clock):
    silent = jobs.enqueue("evaluate", {"n": 1})
    alive = jobs.enqueue("evaluate", {"n": 2})
    jobs.claim("dead-worker")
    jobs.claim("live-worker")
    clock.now += 100
    jobs.heartbeat(alive.id, "live-worker")
    clock.now += 30
    recovered = jobs.recover_stale(timeout_s=60)
    assert [j.id for j in recovered] == [silent.id]
    assert jobs.get(silent.id).state == "queued"
    assert "stale" in jobs.get(silent.id).error
    assert jobs.get(alive.id).state == "running"
    # The dead worker's late report is refused: the job is no longer its own.
    with pytest.raises(JobStateError):
        jobs.finish(silent.id, "dead-worker")
    assert jobs.claim("new-worker").id == silent.id


def test_recover_stale_fails_jobs_out_of_attempts(jobs, clock):
    job = jobs.enqueue("evaluate", {}, max_attempts=1)
    jobs.claim("w1")
    clock.now += 1000
    assert jobs.recover_stale(timeout_s=60)[0].state == "failed"
    assert jobs.get(job.id).state == "failed"


def test_fail_stale_fails_silent_jobs_of_its_kind_only(jobs, clock):
    """For work nobody takes up again (a killed `dgm eval`'s jobs): failed, not requeued."""
    left = jobs.enqueue("transfer", {"n": 1})
    alive = jobs.enqueue("transfer", {"n": 2})
    engine = jobs.enqueue("evaluate", {"n": 3})
    for job in (left, alive, engine):
        jobs.claim("transfer" if job.kind == "transfer" else "w", job_id=job.id)
    clock.now += 100
    jobs.heartbeat(alive.id, "transfer")
    clock.now += 30
    failed = jobs.fail_stale("transfer", timeout_s=60, why="stale: its eval stopped")
    assert [(j.id, j.state, j.error) for j in failed] == [(left.id, "failed", "stale: its eval stopped")]
    assert jobs.get(alive.id).state == "running"
    assert jobs.get(engine.id).state == "running"
    assert jobs.claim("anyone") is None  # nothing was put back in the queue


def test_payload_round_trips(jobs):
    payload = {"node": 3, "task": "repo__issue-1", "nested": {"k": [1, 2.5, None]}}
    job = jobs.enqueue("evaluate", payload)
    assert jobs.get(job.id).payload == payload
    assert jobs.list(state="queued") == [job]
