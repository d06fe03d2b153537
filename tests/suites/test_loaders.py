"""Each source format loads, and its harness proves itself: the reference patch resolves
every task and the empty patch none, graded in real (bwrap) sandboxes."""

from __future__ import annotations

import json

import pytest

from dgm.suites import BenchmarkError, load_suite
from dgm.suites.loaders import parse_spec
from dgm.suites.validate import validate


def assert_validates(suite, grader, n):
    assert len(suite.tasks) == n
    report = validate(suite, grader)
    assert report.ok, [(r.task_id, r.reference.reason, r.reference.log[-500:], r.empty.resolved) for r in report.rows]
    assert report.summary().startswith(f"tasks={n} reference_resolved={n}/{n} empty_resolved=0/{n}")


def test_swebench_jsonl(swebench_rows, grader, tmp_path):
    rows, repos = swebench_rows
    path = tmp_path / "instances.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    suite = load_suite(f"swebench:{path}", repos=repos)
    task = suite.task("acme__calc-1")
    assert task.hidden_paths() == {"tests/test_add.py"}
    assert task.split == "test"
    assert task.command().endswith("tests/test_add.py tests/test_basic.py")
    assert_validates(suite, grader, 2)


def test_swebench_json_and_parquet_read_the_same_rows(swebench_rows, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows, repos = swebench_rows
    (tmp_path / "i.json").write_text(json.dumps(rows))
    flat = [
        {
            **r,
            "FAIL_TO_PASS": json.dumps(
                list(json.loads(r["FAIL_TO_PASS"]) if isinstance(r["FAIL_TO_PASS"], str) else r["FAIL_TO_PASS"])
            ),
            "PASS_TO_PASS": json.dumps(
                list(json.loads(r["PASS_TO_PASS"]) if isinstance(r["PASS_TO_PASS"], str) else r["PASS_TO_PASS"])
            ),
        }
        for r in rows
    ]
    pq.write_table(pa.Table.from_pylist(flat), tmp_path / "i.parquet")
    from_json = load_suite(f"swebench:{tmp_path / 'i.json'}", repos=repos)
    from_parquet = load_suite(f"swebench:{tmp_path / 'i.parquet'}", repos=repos)
    for a, b in zip(from_json.tasks, from_parquet.tasks, strict=True):
        assert (a.id, a.fail_to_pass, a.pass_to_pass, a.reference_patch) == (
            b.id,
            b.fail_to_pass,
            b.pass_to_pass,
            b.reference_patch,
        )


def test_swebench_missing_clone_or_commit_is_a_clear_error(swebench_rows, tmp_path):
    rows, repos = swebench_rows
    path = tmp_path / "i.jsonl"
    path.write_text(json.dumps({**rows[0], "repo": "other/project"}) + "\n")
    with pytest.raises(BenchmarkError, match="no local clone of other/project"):
        load_suite(f"swebench:{path}", repos=repos)
    path.write_text(json.dumps({**rows[0], "base_commit": "0" * 40}) + "\n")
    with pytest.raises(BenchmarkError, match="lacks base commit"):
        load_suite(f"swebench:{path}", repos=repos)


def test_polyglot_python_exercises(polyglot_dir, grader):
    suite = load_suite(f"polyglot:{polyglot_dir}")
    assert sorted(t.id for t in suite.tasks) == ["python/leap", "python/reverse_string"]
    task = suite.task("python/leap")
    assert "Implement leap" in task.statement
    assert task.hidden_paths() == {"leap_test.py"}
    assert "return year % 4 == 0" in task.reference_patch
    assert_validates(suite, grader, 2)


def test_taskdir(taskdir, grader):
    suite = load_suite(f"taskdir:{taskdir}")
    assert [t.id for t in suite.tasks] == ["text-slug-separators"]
    assert_validates(suite, grader, 1)


def test_specs_and_splits(taskdir):
    assert parse_spec("builtin") == ("builtin", None, None)
    assert parse_spec("builtin:test") == ("builtin", None, "test")
    assert parse_spec("taskdir:/a/b:dev") == ("taskdir", "/a/b", "dev")
    assert parse_spec("swebench:/x/i.jsonl") == ("swebench", "/x/i.jsonl", None)
    assert len(load_suite(f"taskdir:{taskdir}:test").tasks) == 0
    with pytest.raises(BenchmarkError, match="unknown suite source"):
        load_suite("huggingface:x")
    with pytest.raises(BenchmarkError, match="no task folder"):
        load_suite(f"taskdir:{taskdir}/missing")
    with pytest.raises(BenchmarkError, match="needs a path"):
        load_suite("taskdir")
