"""A read-only archive (what `dgm serve` watches a run through): it reads while a writer
holds its transaction, refuses every write, and never migrates or touches the file."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from archive import Archive, NotAnArchiveError
from tests.helpers import write_tree


@pytest.fixture
def run(tmp_path):
    with Archive.for_run(tmp_path / "run", create=True) as ar:
        snap = ar.add_snapshot(write_tree(tmp_path / "seed", {"agent.py": "pass\n"}))
        root = ar.add_node(None, snap, status="valid")
        ar.add_evaluation(root.id, "dev", "t1", True)
    return tmp_path / "run"


def test_reads_while_the_run_writes_and_sees_its_commits(run):
    with Archive.for_run(run) as writer, Archive.for_run(run, read_only=True) as viewer:
        with writer.atomic():  # the run holds the write lock
            writer.add_evaluation(1, "dev", "t2", False)
            assert [e.task_id for e in viewer.evaluations()] == ["t1"]  # not blocked, not dirty
        assert [e.task_id for e in viewer.evaluations()] == ["t1", "t2"]


def test_every_write_is_refused(run):
    with Archive.for_run(run, read_only=True) as viewer:
        with pytest.raises(sqlite3.OperationalError, match=r"readonly|read-only|query_only"):
            viewer.add_evaluation(1, "dev", "t3", True)
        with pytest.raises(sqlite3.OperationalError):
            viewer.db.execute("DELETE FROM nodes")
    with Archive.for_run(run) as ar:
        assert len(ar.evaluations()) == 1
        assert len(ar.nodes()) == 1


def test_an_older_schema_is_refused_not_migrated(run):
    with Archive.for_run(run) as ar, ar.atomic():
        ar.db.execute("DELETE FROM migrations WHERE version = (SELECT max(version) FROM migrations)")
    before = hashlib.sha256((run / "archive.db").read_bytes()).hexdigest()
    with pytest.raises(NotAnArchiveError, match="dgm status"):
        Archive.for_run(run, read_only=True)
    assert hashlib.sha256((run / "archive.db").read_bytes()).hexdigest() == before


def test_a_foreign_sqlite_file_is_refused(tmp_path):
    (tmp_path / "run").mkdir()
    conn = sqlite3.connect(tmp_path / "run" / "archive.db")
    conn.execute("CREATE TABLE t (x)")
    conn.close()
    with pytest.raises(NotAnArchiveError, match="not a dgm archive"):
        Archive.for_run(tmp_path / "run", read_only=True)
