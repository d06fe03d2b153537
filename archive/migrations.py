"""Numbered schema migrations, applied in order on open, each in its own transaction.

Append new migrations at the end; never edit one that has shipped.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlite_utils

Migration = Callable[[sqlite_utils.Database], None]


def _execute_all(db: sqlite_utils.Database, statements: str) -> None:
    # executescript() would commit the surrounding transaction; run one at a time.
    for statement in statements.split(";"):
        if statement.strip():
            db.execute(statement)


def m0001_initial(db: sqlite_utils.Database) -> None:
    _execute_all(
        db,
        """
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            created_at REAL NOT NULL,
            seed INTEGER,
            config TEXT NOT NULL DEFAULT '{}'
        );
        CREATE TABLE blobs (
            id INTEGER PRIMARY KEY,
            sha256 TEXT NOT NULL UNIQUE,
            size INTEGER NOT NULL,
            data BLOB NOT NULL
        );
        CREATE TABLE paths (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE
        );
        CREATE TABLE snapshots (
            id INTEGER PRIMARY KEY,
            digest TEXT NOT NULL UNIQUE,
            n_files INTEGER NOT NULL,
            total_bytes INTEGER NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE TABLE snapshot_files (
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
            path_id INTEGER NOT NULL REFERENCES paths(id),
            mode INTEGER NOT NULL,
            blob_id INTEGER REFERENCES blobs(id),
            PRIMARY KEY (snapshot_id, path_id)
        ) WITHOUT ROWID;
        CREATE TABLE nodes (
            id INTEGER PRIMARY KEY,
            parent_id INTEGER REFERENCES nodes(id),
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
            status TEXT NOT NULL
                CHECK (status IN ('pending', 'valid', 'invalid', 'failed')),
            reason TEXT,
            origin TEXT NOT NULL DEFAULT '{}',
            created_at REAL NOT NULL
        );
        CREATE INDEX nodes_parent ON nodes(parent_id);
        CREATE TABLE evaluations (
            id INTEGER PRIMARY KEY,
            node_id INTEGER NOT NULL REFERENCES nodes(id),
            benchmark TEXT NOT NULL,
            task_id TEXT NOT NULL,
            attempt INTEGER NOT NULL CHECK (attempt >= 0),
            resolved INTEGER NOT NULL CHECK (resolved IN (0, 1)),
            tests TEXT NOT NULL DEFAULT '{}',
            duration_s REAL NOT NULL DEFAULT 0,
            cost_usd REAL NOT NULL DEFAULT 0,
            log_blob_id INTEGER REFERENCES blobs(id),
            created_at REAL NOT NULL,
            UNIQUE (node_id, benchmark, task_id, attempt)
        );
        CREATE TABLE jobs (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL DEFAULT '{}',
            state TEXT NOT NULL
                CHECK (state IN ('queued', 'running', 'done', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0,
            max_attempts INTEGER NOT NULL DEFAULT 3 CHECK (max_attempts >= 1),
            worker TEXT,
            heartbeat_at REAL,
            created_at REAL NOT NULL,
            started_at REAL,
            finished_at REAL,
            result TEXT,
            error TEXT
        );
        CREATE INDEX jobs_state ON jobs(state, id);
        CREATE TABLE fm_calls (
            id INTEGER PRIMARY KEY,
            job_id INTEGER REFERENCES jobs(id),
            node_id INTEGER REFERENCES nodes(id),
            model TEXT NOT NULL,
            prompt_tokens INTEGER NOT NULL DEFAULT 0,
            completion_tokens INTEGER NOT NULL DEFAULT 0,
            cost_usd REAL NOT NULL DEFAULT 0,
            latency_s REAL NOT NULL DEFAULT 0,
            request_hash TEXT NOT NULL,
            status TEXT NOT NULL,
            error TEXT,
            created_at REAL NOT NULL
        );
        CREATE INDEX fm_calls_request_hash ON fm_calls(request_hash);
        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            ts REAL NOT NULL,
            kind TEXT NOT NULL,
            node_id INTEGER,
            job_id INTEGER,
            data TEXT NOT NULL DEFAULT '{}'
        )
        """,
    )


def m0002_fm_call_responses(db: sqlite_utils.Database) -> None:
    """Keep each model reply (for replaying a run offline) and the attempts it took."""
    _execute_all(
        db,
        """
        ALTER TABLE fm_calls ADD COLUMN response_blob_id INTEGER REFERENCES blobs(id);
        ALTER TABLE fm_calls ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1
        """,
    )


def m0003_fm_call_roles(db: sqlite_utils.Database) -> None:
    """Which role made each model call (solve, improve, diagnose, ...), for spend per role.
    Calls recorded before it have none."""
    _execute_all(db, "ALTER TABLE fm_calls ADD COLUMN role TEXT")


def m0004_second_parents(db: sqlite_utils.Database) -> None:
    """A recombined child's second parent (the primary one stays parent_id: the tree, and
    CMP's clades, follow it)."""
    _execute_all(db, "ALTER TABLE nodes ADD COLUMN second_parent_id INTEGER REFERENCES nodes(id)")


def m0005_judgements_and_epochs(db: sqlite_utils.Database) -> None:
    """A judge's scores, their own kind of result (never `resolved`), and the run's epochs,
    each with the utility that held in it."""
    _execute_all(
        db,
        """
        CREATE TABLE judgements (
            id INTEGER PRIMARY KEY,
            node_id INTEGER NOT NULL REFERENCES nodes(id),
            benchmark TEXT NOT NULL,
            task_id TEXT NOT NULL,
            score REAL NOT NULL CHECK (score >= 0 AND score <= 1),
            model TEXT,
            rationale TEXT NOT NULL DEFAULT '',
            job_id INTEGER REFERENCES jobs(id),
            created_at REAL NOT NULL
        );
        CREATE INDEX judgements_node ON judgements(node_id, benchmark);
        CREATE TABLE epochs (
            id INTEGER PRIMARY KEY,
            utility TEXT NOT NULL,
            from_evaluation INTEGER NOT NULL,
            created_at REAL NOT NULL
        )
        """,
    )


# Position in this list + 1 is the migration's number.
MIGRATIONS: list[Migration] = [
    m0001_initial,
    m0002_fm_call_responses,
    m0003_fm_call_roles,
    m0004_second_parents,
    m0005_judgements_and_epochs,
]
