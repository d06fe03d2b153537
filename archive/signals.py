"""Signals beside the hidden tests: a judge's scores (their own kind, never `resolved`) and
the run's epochs (each with the utility that held in it)."""

from __future__ import annotations

import sqlite_utils

from .db import inserted
from .records import Epoch, Judgement

_JUDGEMENT_SQL = "SELECT id, node_id, benchmark, task_id, score, model, rationale, job_id, created_at FROM judgements"


def add_judgement(
    db: sqlite_utils.Database,
    now: float,
    node_id: int,
    benchmark: str,
    task_id: str,
    score: float,
    *,
    model: str | None = None,
    rationale: str = "",
    job_id: int | None = None,
) -> Judgement:
    """Call inside a write transaction. `score` must lie in [0, 1]."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a judge's score lies in [0, 1], not {score!r}")
    row_id = inserted(
        db.execute(
            """INSERT INTO judgements (node_id, benchmark, task_id, score, model, rationale, job_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            [node_id, benchmark, task_id, float(score), model, rationale, job_id, now],
        )
    )
    return Judgement(row_id, node_id, benchmark, task_id, float(score), model, rationale, job_id, now)


def judgements(db: sqlite_utils.Database, node_id: int | None = None, benchmark: str | None = None) -> list[Judgement]:
    clauses, params = [], []
    for column, value in (("node_id", node_id), ("benchmark", benchmark)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
    return [Judgement(*row) for row in db.execute(f"{_JUDGEMENT_SQL}{where} ORDER BY id", params)]


def add_epoch(db: sqlite_utils.Database, now: float, utility: str, from_evaluation: int) -> Epoch:
    """Call inside a write transaction: the next epoch begins, after `from_evaluation`
    evaluations of the run, under `utility`."""
    last = db.execute("SELECT coalesce(max(id), 0), coalesce(max(from_evaluation), 0) FROM epochs").fetchone()
    if from_evaluation < last[1]:
        raise ValueError(f"epoch {last[0] + 1} cannot begin at evaluation {from_evaluation}, before epoch {last[0]}")
    db.execute(
        "INSERT INTO epochs (id, utility, from_evaluation, created_at) VALUES (?, ?, ?, ?)",
        [last[0] + 1, utility, from_evaluation, now],
    )
    return Epoch(last[0] + 1, utility, from_evaluation, now)


def epochs(db: sqlite_utils.Database) -> list[Epoch]:
    rows = db.execute("SELECT id, utility, from_evaluation, created_at FROM epochs ORDER BY id")
    return [Epoch(*row) for row in rows]
