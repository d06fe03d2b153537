"""Rows that record what happened: evaluations, foundation-model calls, events, runs."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from . import blobs
from .db import count, inserted
from .errors import UnknownRecordError
from .records import Evaluation, Event, FmCall

_EVAL_SQL = """SELECT e.id, e.node_id, e.benchmark, e.task_id, e.attempt, e.resolved, e.tests,
                      e.duration_s, e.cost_usd, b.sha256, e.created_at
               FROM evaluations e LEFT JOIN blobs b ON b.id = e.log_blob_id"""


def _evaluation(row: tuple[Any, ...]) -> Evaluation:
    id_, node, bench, task, attempt, resolved, tests, dur, cost, log, created = row
    return Evaluation(id_, node, bench, task, attempt, bool(resolved), json.loads(tests), dur, cost, log, created)


def add_evaluation(
    db: sqlite_utils.Database,
    now: float,
    node_id: int,
    benchmark: str,
    task_id: str,
    resolved: bool,
    *,
    tests: dict[str, str] | None = None,
    duration_s: float = 0.0,
    cost_usd: float = 0.0,
    log: bytes | None = None,
    attempt: int | None = None,
) -> Evaluation:
    """Call inside a write transaction. `attempt=None` takes the next free attempt number."""
    if attempt is None:
        attempt = db.execute(
            "SELECT coalesce(max(attempt) + 1, 0) FROM evaluations WHERE node_id = ? AND benchmark = ? AND task_id = ?",
            [node_id, benchmark, task_id],
        ).fetchone()[0]
    log_id = blobs.put(db, log) if log is not None else None
    eval_id = inserted(
        db.execute(
            """INSERT INTO evaluations (node_id, benchmark, task_id, attempt, resolved, tests,
               duration_s, cost_usd, log_blob_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            [
                node_id,
                benchmark,
                task_id,
                attempt,
                int(bool(resolved)),
                json.dumps(tests or {}, sort_keys=True),
                duration_s,
                cost_usd,
                log_id,
                now,
            ],
        )
    )
    return get_evaluation(db, eval_id)


def get_evaluation(db: sqlite_utils.Database, eval_id: int) -> Evaluation:
    row = db.execute(_EVAL_SQL + " WHERE e.id = ?", [eval_id]).fetchone()
    if row is None:
        raise UnknownRecordError(f"no evaluation {eval_id}")
    return _evaluation(row)


def evaluations(
    db: sqlite_utils.Database, node_id: int | None = None, benchmark: str | None = None
) -> list[Evaluation]:
    sql, params = _EVAL_SQL + " WHERE 1=1", list[object]()
    if node_id is not None:
        sql, params = sql + " AND e.node_id = ?", [*params, node_id]
    if benchmark is not None:
        sql, params = sql + " AND e.benchmark = ?", [*params, benchmark]
    return [_evaluation(r) for r in db.execute(sql + " ORDER BY e.id", params)]


_FM_SQL = """SELECT f.id, f.job_id, f.node_id, f.model, f.prompt_tokens, f.completion_tokens, f.cost_usd,
                    f.latency_s, f.request_hash, f.status, f.created_at, f.error, b.sha256, f.attempts, f.role
             FROM fm_calls f LEFT JOIN blobs b ON b.id = f.response_blob_id"""
_FM_WRITABLE = frozenset(
    {
        "job_id",
        "node_id",
        "model",
        "prompt_tokens",
        "completion_tokens",
        "cost_usd",
        "latency_s",
        "request_hash",
        "status",
        "error",
        "attempts",
        "role",
    }
)


def add_fm_call(db: sqlite_utils.Database, now: float, response: bytes | None = None, **fields: Any) -> FmCall:
    """Call inside a write transaction. Fields as in `FmCall`; `response` is the raw reply."""
    unknown = fields.keys() - _FM_WRITABLE
    if unknown:
        raise TypeError(f"unknown fm_call fields: {sorted(unknown)}")
    fields = {"status": "ok", **fields, "created_at": now}
    if response is not None:
        fields["response_blob_id"] = blobs.put(db, response)
    cols = ", ".join(fields)
    call_id = inserted(
        db.execute(f"INSERT INTO fm_calls ({cols}) VALUES ({', '.join('?' * len(fields))})", list(fields.values()))
    )
    return fm_calls(db, call_id=call_id)[0]


def fm_calls(
    db: sqlite_utils.Database,
    job_id: int | None = None,
    call_id: int | None = None,
    request_hash: str | None = None,
) -> list[FmCall]:
    sql, params = _FM_SQL + " WHERE 1=1", list[object]()
    for column, value in (("f.job_id", job_id), ("f.id", call_id), ("f.request_hash", request_hash)):
        if value is not None:
            sql, params = sql + f" AND {column} = ?", [*params, value]
    return [FmCall(*r) for r in db.execute(sql + " ORDER BY f.id", params)]


def fm_usage(db: sqlite_utils.Database, job_id: int | None = None) -> tuple[int, float]:
    """(tokens, dollars) spent so far, by one job or by the whole run."""
    sql, params = (
        "SELECT coalesce(sum(prompt_tokens + completion_tokens), 0), coalesce(sum(cost_usd), 0) FROM fm_calls",
        [],
    )
    if job_id is not None:
        sql, params = sql + " WHERE job_id = ?", [job_id]
    tokens, usd = db.execute(sql, params).fetchone()
    return int(tokens), float(usd)


def fm_call_count(db: sqlite_utils.Database, job_id: int | None = None) -> int:
    """Model calls made so far, by one job or by the whole run."""
    if job_id is None:
        return count(db, "SELECT count(*) FROM fm_calls")
    return count(db, "SELECT count(*) FROM fm_calls WHERE job_id = ?", [job_id])


def log_event(
    db: sqlite_utils.Database,
    now: float,
    kind: str,
    node_id: int | None = None,
    job_id: int | None = None,
    data: dict[str, Any] | None = None,
) -> None:
    """Call inside a write transaction."""
    db.execute(
        "INSERT INTO events (ts, kind, node_id, job_id, data) VALUES (?, ?, ?, ?, ?)",
        [now, kind, node_id, job_id, json.dumps(data or {}, sort_keys=True)],
    )


def events(db: sqlite_utils.Database, kind: str | None = None) -> list[Event]:
    sql, params = "SELECT id, ts, kind, node_id, job_id, data FROM events", list[object]()
    if kind is not None:
        sql, params = sql + " WHERE kind = ?", [kind]
    return [Event(i, ts, k, n, j, json.loads(d)) for i, ts, k, n, j, d in db.execute(sql + " ORDER BY id", params)]
