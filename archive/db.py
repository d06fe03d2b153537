"""Opening an archive file: foreign-file detection, pragmas, numbered migrations."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import sqlite_utils

from .errors import NotAnArchiveError
from .migrations import MIGRATIONS

# PRAGMA application_id marks a file as a dgm archive ("DGM1").
APPLICATION_ID = 0x44474D31
# Blobs of a few KB pack better into 8 KiB pages (about 12% smaller archives than 4 KiB;
# see BENCHMARKS.md). Only takes effect when the file is created.
PAGE_SIZE = 8192
MIGRATIONS_TABLE = "migrations"


def connect(
    path: Path,
    *,
    create: bool,
    busy_timeout_s: float,
    synchronous: str,
    check_same_thread: bool = True,
    read_only: bool = False,
) -> sqlite_utils.Database:
    """Open (and, with `create`, make) the archive at `path`; migrate it to the newest schema.
    `read_only`: open it to watch, never to write (no migration; a schema other than this
    dgm's newest is refused), so that a viewer cannot change or lock a run's archive."""
    path = Path(path)
    if not path.exists() and not create:
        raise NotAnArchiveError(f"no archive at {path}")
    if path.exists() and not path.is_file():
        raise NotAnArchiveError(f"{path} is not a file")
    if read_only:
        return _connect_read_only(path, busy_timeout_s, check_same_thread)
    conn = _sqlite(path, "rwc" if create else "rw", busy_timeout_s, check_same_thread)
    with _closed_on_error(conn, path):
        if _check_ours(conn, path) == "new":
            conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise NotAnArchiveError(f"{path}: cannot switch to WAL mode (got {mode!r})")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        conn.execute("PRAGMA foreign_keys = ON")
        db = sqlite_utils.Database(conn, execute_plugins=False)
        migrate(db, path)
    return db


def _connect_read_only(path: Path, busy_timeout_s: float, check_same_thread: bool) -> sqlite_utils.Database:
    conn = _sqlite(path, "ro", busy_timeout_s, check_same_thread)
    with _closed_on_error(conn, path):
        conn.execute("PRAGMA query_only = ON")
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            raise NotAnArchiveError(f"{path} is not a dgm archive")
        db = sqlite_utils.Database(conn, execute_plugins=False)
        version = schema_version(db)
        if version != len(MIGRATIONS):
            fix = "upgrade dgm" if version > len(MIGRATIONS) else "open it once with `dgm status` to migrate it"
            raise NotAnArchiveError(f"{path} has schema version {version}, this dgm reads {len(MIGRATIONS)}; {fix}")
    return db


def _sqlite(path: Path, mode: str, busy_timeout_s: float, check_same_thread: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(
        f"file:{path.resolve()}?mode={mode}", uri=True, timeout=busy_timeout_s, check_same_thread=check_same_thread
    )
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
    return conn


@contextlib.contextmanager
def _closed_on_error(conn: sqlite3.Connection, path: Path) -> Iterator[None]:
    """Close `conn` if opening fails; an SQLite error means the file is no usable archive."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise NotAnArchiveError(f"{path}: not a usable dgm archive ({exc})") from exc
    except BaseException:
        conn.close()
        raise


def _check_ours(conn: sqlite3.Connection, path: Path) -> str:
    """'ours' or 'new' (empty); refuses any other SQLite file.

    Runs before anything is written, so a foreign file is never modified."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    if app_id == APPLICATION_ID:
        return "ours"
    n_objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if app_id != 0 or n_objects:
        raise NotAnArchiveError(f"{path} is an SQLite database but not a dgm archive; refusing to touch it")
    return "new"


def inserted(cursor: sqlite3.Cursor) -> int:
    """The row id an INSERT just made."""
    if cursor.lastrowid is None:
        raise sqlite3.DatabaseError("the INSERT made no row")
    return cursor.lastrowid


def count(db: sqlite_utils.Database, sql: str, params: list[object] | None = None) -> int:
    """The one integer a `SELECT count(...)`-like query returns."""
    return int(db.execute(sql, params or []).fetchone()[0])


@contextlib.contextmanager
def write_transaction(db: sqlite_utils.Database) -> Iterator[None]:
    """One write transaction: BEGIN IMMEDIATE (takes the write lock up front, so
    concurrent writers wait on the busy timeout instead of failing on upgrade).
    Nested calls become savepoints of the outer transaction."""
    if db.conn.in_transaction:
        with db.atomic():
            yield
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.rollback()
        raise
    db.execute("COMMIT")


def migrate(db: sqlite_utils.Database, path: Path) -> None:
    with write_transaction(db):
        db.execute(
            f"CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE} "
            "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    current = schema_version(db)
    if current > len(MIGRATIONS):
        raise NotAnArchiveError(
            f"{path} has schema version {current}, newer than this dgm knows "
            f"({len(MIGRATIONS)}); upgrade dgm to open it"
        )
    for version, migration in enumerate(MIGRATIONS, start=1):
        if version <= current:
            continue
        with write_transaction(db):
            # Re-check under the write lock: another process may have migrated meanwhile.
            if schema_version(db) >= version:
                continue
            migration(db)
            db.execute(
                f"INSERT INTO {MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, ?, ?)",
                [version, migration.__name__, time.time()],
            )


def schema_version(db: sqlite_utils.Database) -> int:
    row = db.execute(f"SELECT max(version) FROM {MIGRATIONS_TABLE}").fetchone()
    return row[0] or 0
