"""integrity_check() finds what is wrong with an archive, and opening refuses what is not one."""

from __future__ import annotations

import sqlite3

import pytest

from archive import Archive, NotAnArchiveError
from archive.db import APPLICATION_ID
from archive.migrations import MIGRATIONS
from tests.helpers import write_tree


@pytest.fixture
def populated(archive: Archive, tmp_path):
    src = write_tree(tmp_path / "src", {"a.py": "a = 1\n", "b/c.py": "c = 2\n"})
    root = archive.add_child(None, src, status="valid")
    (src / "a.py").write_text("a = 3\n")
    child = archive.add_child(root.id, src)
    archive.add_evaluation(child.id, "dev", "t1", True, log=b"ok")
    job = archive.jobs.enqueue("evaluate", {"node": child.id})
    archive.jobs.claim("w")
    archive.jobs.finish(job.id, "w")
    return archive, root, child


def tamper(archive: Archive, sql: str, params=()) -> None:
    archive.db.execute("PRAGMA foreign_keys = OFF")
    with archive.atomic():
        archive.db.execute(sql, list(params))
    archive.db.execute("PRAGMA foreign_keys = ON")


def kinds(archive: Archive) -> set[str]:
    return {p.kind for p in archive.integrity_check()}


def test_sound_archive_has_no_problems(populated):
    archive, *_ = populated
    assert archive.integrity_check() == []


def test_parent_cycle_is_found(populated):
    archive, root, child = populated
    tamper(archive, "UPDATE nodes SET parent_id = ? WHERE id = ?", [child.id, root.id])
    problems = archive.integrity_check()
    assert any("cycle" in p.detail for p in problems)


def test_missing_parent_is_found(populated):
    archive, _root, child = populated
    tamper(archive, "UPDATE nodes SET parent_id = 999 WHERE id = ?", [child.id])
    assert "node" in kinds(archive)
    assert "reference" in kinds(archive)


def test_missing_blob_reference_is_found(populated):
    archive, *_ = populated
    tamper(archive, "UPDATE snapshot_files SET blob_id = 12345 WHERE blob_id IS NOT NULL")
    assert "reference" in kinds(archive)


def test_manifest_not_matching_its_id_is_found(populated):
    archive, _root, _child = populated
    tamper(archive, "UPDATE snapshot_files SET mode = 33261 WHERE mode = 33188")
    assert any("does not match its id" in p.detail for p in archive.integrity_check())


@pytest.mark.parametrize(
    ("sql", "fragment"),
    [
        ("UPDATE jobs SET state = 'running', worker = NULL", "running without a worker"),
        ("UPDATE jobs SET state = 'queued'", "queued but held"),
        ("UPDATE jobs SET finished_at = NULL", "without a finish time"),
        ("UPDATE jobs SET attempts = 9", "attempts of at most"),
    ],
)
def test_illegal_job_states_are_found(populated, sql, fragment):
    archive, *_ = populated
    tamper(archive, sql)
    assert any(fragment in p.detail for p in archive.integrity_check())


def test_foreign_sqlite_file_is_refused_and_untouched(tmp_path):
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(NotAnArchiveError, match="not a dgm archive"):
        Archive(path)
    assert path.read_bytes() == before
    assert not (tmp_path / "other.db-wal").exists()


def test_non_sqlite_file_is_refused(tmp_path):
    path = tmp_path / "archive.db"
    path.write_bytes(b"this is not a database, just some text " * 200)
    before = path.read_bytes()
    with pytest.raises(NotAnArchiveError, match="not"):
        Archive(path)
    assert path.read_bytes() == before


def test_missing_archive_is_not_created_without_create(tmp_path):
    with pytest.raises(NotAnArchiveError, match="no archive"):
        Archive(tmp_path / "nope.db", create=False)
    assert not (tmp_path / "nope.db").exists()


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "archive.db"
    Archive(path).close()
    con = sqlite3.connect(path)
    con.execute("INSERT INTO migrations VALUES (?, 'from_the_future', 0)", [len(MIGRATIONS) + 1])
    con.commit()
    con.close()
    with pytest.raises(NotAnArchiveError, match="newer than this dgm"):
        Archive(path)


def test_open_applies_migrations_once(tmp_path):
    path = tmp_path / "archive.db"
    Archive(path).close()
    Archive(path).close()
    con = sqlite3.connect(path)
    versions = [r[0] for r in con.execute("SELECT version FROM migrations ORDER BY version")]
    assert versions == list(range(1, len(MIGRATIONS) + 1))
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
