"""The job table: what is queued, in flight, done or failed, with leases by heartbeat.

A worker claims a job, heartbeats while it runs and finishes or fails it. A job whose
worker stopped heartbeating (a crash, a kill) is put back by `recover_stale()`."""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable, Iterable
from typing import Any

import sqlite_utils

from .db import inserted, write_transaction
from .errors import JobStateError, UnknownRecordError
from .records import JOB_STATES, Job

_COLUMNS = (
    "id, kind, payload, state, attempts, max_attempts, worker, heartbeat_at, created_at, finished_at, result, error"
)


def _job(row: tuple[Any, ...]) -> Job:
    (id_, kind, payload, state, attempts, max_attempts, worker, hb, created, finished, result, error) = row
    return Job(
        id_,
        kind,
        json.loads(payload),
        state,
        attempts,
        max_attempts,
        worker,
        hb,
        created,
        finished,
        json.loads(result) if result is not None else None,
        error,
    )


class JobQueue:
    def __init__(self, db: sqlite_utils.Database, clock: Callable[[], float]):
        self.db = db
        self.clock = clock

    def get(self, job_id: int) -> Job:
        row = self.db.execute(f"SELECT {_COLUMNS} FROM jobs WHERE id = ?", [job_id]).fetchone()
        if row is None:
            raise UnknownRecordError(f"no job {job_id}")
        return _job(row)

    def list(self, state: str | None = None, kind: str | None = None) -> list[Job]:
        sql, params = f"SELECT {_COLUMNS} FROM jobs WHERE 1=1", list[object]()
        if state is not None:
            sql, params = sql + " AND state = ?", [*params, state]
        if kind is not None:
            sql, params = sql + " AND kind = ?", [*params, kind]
        return [_job(r) for r in self.db.execute(sql + " ORDER BY id", params)]

    def counts(self) -> dict[str, int]:
        found = dict(self.db.execute("SELECT state, count(*) FROM jobs GROUP BY state").fetchall())
        return {state: found.get(state, 0) for state in JOB_STATES}

    def enqueue(self, kind: str, payload: dict[str, Any], max_attempts: int = 3) -> Job:
        with write_transaction(self.db):
            job_id = inserted(
                self.db.execute(
                    "INSERT INTO jobs (kind, payload, state, max_attempts, created_at) VALUES (?, ?, 'queued', ?, ?)",
                    [kind, json.dumps(payload, sort_keys=True), max_attempts, self.clock()],
                )
            )
            return self.get(job_id)

    def claim(self, worker: str, kinds: Iterable[str] | None = None, job_id: int | None = None) -> Job | None:
        """Take the oldest queued job (of `kinds`, or exactly `job_id`, if given) for `worker`, or None."""
        sql, params = "SELECT id FROM jobs WHERE state = 'queued'", list[object]()
        if job_id is not None:
            sql, params = sql + " AND id = ?", [job_id]
        if kinds is not None:
            kinds = list(kinds)
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            params += kinds
        with write_transaction(self.db):
            row = self.db.execute(sql + " ORDER BY id LIMIT 1", params).fetchone()
            if row is None:
                return None
            now = self.clock()
            self.db.execute(
                """UPDATE jobs SET state = 'running', attempts = attempts + 1, worker = ?,
                   heartbeat_at = ?, started_at = ?, error = NULL WHERE id = ?""",
                [worker, now, now, row[0]],
            )
            return self.get(row[0])

    def _running(self, job_id: int, worker: str) -> Job:
        job = self.get(job_id)
        if job.state != "running" or job.worker != worker:
            raise JobStateError(f"job {job_id} is {job.state} (worker {job.worker!r}), not running for {worker!r}")
        return job

    def heartbeat(self, job_id: int, worker: str) -> None:
        """Extend the lease; raises JobStateError if the job was taken away meanwhile."""
        with write_transaction(self.db):
            self._running(job_id, worker)
            self.db.execute("UPDATE jobs SET heartbeat_at = ? WHERE id = ?", [self.clock(), job_id])

    def finish(self, job_id: int, worker: str, result: dict[str, Any] | None = None) -> Job:
        with write_transaction(self.db):
            self._running(job_id, worker)
            self.db.execute(
                "UPDATE jobs SET state = 'done', finished_at = ?, result = ? WHERE id = ?",
                [self.clock(), json.dumps(result or {}, sort_keys=True), job_id],
            )
            return self.get(job_id)

    def fail(self, job_id: int, worker: str, error: str, retry: bool = True) -> Job:
        """Record a failed attempt: back to the queue while attempts remain, else failed."""
        with write_transaction(self.db):
            job = self._running(job_id, worker)
            self._release(job, error, retry)
            return self.get(job_id)

    def release(self, job_id: int, worker: str, note: str) -> Job:
        """Give a running job back to the queue without counting the attempt (the run was
        stopped, the job did not fail)."""
        with write_transaction(self.db):
            self._running(job_id, worker)
            self.db.execute(
                "UPDATE jobs SET state = 'queued', worker = NULL, heartbeat_at = NULL, error = ?, "
                "attempts = max(attempts - 1, 0) WHERE id = ?",
                [note, job_id],
            )
            return self.get(job_id)

    def _release(self, job: Job, error: str, retry: bool) -> None:
        if retry and job.attempts < job.max_attempts:
            self.db.execute(
                "UPDATE jobs SET state = 'queued', worker = NULL, heartbeat_at = NULL, error = ? WHERE id = ?",
                [error, job.id],
            )
        else:
            self.db.execute(
                "UPDATE jobs SET state = 'failed', finished_at = ?, error = ? WHERE id = ?",
                [self.clock(), error, job.id],
            )

    def _stale(self, timeout_s: float, kind: str | None = None) -> builtins.list[Job]:
        """Running jobs (of `kind`, if given) not heartbeated for `timeout_s`, oldest first."""
        sql, params = (
            f"SELECT {_COLUMNS} FROM jobs WHERE state = 'running' AND heartbeat_at < ?",
            list[object]([self.clock() - timeout_s]),
        )
        if kind is not None:
            sql, params = sql + " AND kind = ?", [*params, kind]
        return [_job(r) for r in self.db.execute(sql + " ORDER BY id", params)]

    def fail_stale(self, kind: str, timeout_s: float, why: str) -> builtins.list[Job]:
        """Fail running jobs of `kind` not heartbeated for `timeout_s`, for work that nobody
        takes up again once its process is gone (a killed `dgm eval`: the next one makes new
        jobs for the tasks not recorded). Returns them as they are now."""
        with write_transaction(self.db):
            stale = self._stale(timeout_s, kind)
            for job in stale:
                self._release(job, why, retry=False)
            return [self.get(job.id) for job in stale]

    def recover_stale(self, timeout_s: float) -> builtins.list[Job]:
        """Requeue (or fail, when out of attempts) running jobs not heartbeated for `timeout_s`."""
        with write_transaction(self.db):
            stale = self._stale(timeout_s)
            for job in stale:
                self._release(job, f"stale: no heartbeat from {job.worker!r} for {timeout_s:g}s", True)
            return [self.get(job.id) for job in stale]
