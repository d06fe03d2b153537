"""Aider's polyglot benchmark in all six languages, from ../shared/benchmarks: one exercise
per language graded on both sandboxes (its reference resolves, its stub does not), the
agent's view (no tests, no .meta, told the language), and the counts `dgm bench list`
shows. The whole benchmark's validation is a benchmark (BENCHMARKS.md)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from dgm.cli import main
from dgm.suites import BenchmarkError, Grader, load_suite
from sandbox import get_backend
from tests.conftest import require

pytestmark = pytest.mark.minutes(3)  # see tests/conftest.py

ONE_PER_LANGUAGE = {
    "cpp": "cpp/all-your-base",
    "go": "go/alphametics",
    "java": "java/poker",  # the reference adds helper classes beside the solution
    "javascript": "javascript/affine-cipher",  # its tests are skipped (xtest) until unskipped
    "python": "python/affine-cipher",
    "rust": "rust/simple-cipher",  # depends on a crate (rand), from Debian's registry offline
}


@pytest.fixture(scope="module")
def suite(polyglot_benchmark):
    return load_suite(f"polyglot:{polyglot_benchmark}")


@pytest.mark.parametrize("backend_name", ["bwrap", "docker"])
@pytest.mark.parametrize("language", sorted(ONE_PER_LANGUAGE))
def test_an_exercise_grades_its_reference_and_not_its_stub(suite, language, backend_name, availability, tmp_path):
    require(backend_name, availability)
    task = suite.task(ONE_PER_LANGUAGE[language])
    grader = Grader(get_backend(backend_name), tmp_path / "cache")
    reference, stub = grader.grade(task, task.reference_patch), grader.grade(task, "")
    assert reference.resolved, reference.log[-2000:]
    assert len(reference.tests) > 1
    assert "(all)" not in reference.tests
    assert not reference.tamper
    assert not stub.tamper
    # a stub fails its tests, or does not build (C++'s declares nothing the tests call)
    assert not stub.resolved
    assert stub.reason == ("no_results" if language == "cpp" else "tests_failed")


def test_every_language_is_loaded_with_its_image_and_timeout(suite):
    languages = {t.language for t in suite.tasks}
    assert languages == set(ONE_PER_LANGUAGE)
    assert len(suite.tasks) == 225
    cpp, python = suite.task("cpp/all-your-base"), suite.task("python/affine-cipher")
    assert cpp.image
    assert cpp.image.startswith("dgm-sandbox-polyglot:")
    assert python.image is None
    assert suite.task("rust/simple-cipher").timeout > python.timeout


def test_the_agent_sees_the_stub_and_instructions_but_no_tests(suite, tmp_path):
    task = suite.task("java/poker")
    view = task.agent_view()
    assert "The language is java." in view["statement"]
    assert "src/main/java/Poker.java" in view["statement"]
    exported = task.repo.export(tmp_path / "repo")
    files = {p.relative_to(exported).as_posix() for p in exported.rglob("*") if p.is_file()}
    assert "src/main/java/Poker.java" in files
    assert not any(f.startswith((".meta", ".docs")) or f.startswith("src/test") for f in files)


def test_hidden_javascript_tests_run_unskipped(suite):
    task = suite.task("javascript/affine-cipher")
    (content,) = task.hidden_files.values()
    assert b"xtest(" not in content
    assert b"test(" in content
    # ... and those the exercise skips for being slow on exercism's runner (test.skip) too
    (slow,) = suite.task("javascript/robot-name").hidden_files.values()
    assert b"test.skip(" not in slow
    assert b"'all the names can be generated'" in slow


def test_bench_list_counts_each_language_by_split(polyglot_benchmark):
    result = CliRunner().invoke(main, ["bench", "list", f"polyglot:{polyglot_benchmark}"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "cpp            26 tasks (dev 21, test 5)" in lines
    assert "rust           30 tasks (dev 26, test 4)" in lines
    assert lines[-1] == "225 tasks (dev 177, test 48)"
    # judged whole: every test the exercise runs must pass, so it names none of its own
    assert any(line.split()[:5] == ["go/say", "dev", "-", "all", "-"] for line in lines)


def test_rust_references_bring_their_manifest_made_offline(suite):
    """A reference that needs crates (rust/decimal's num-bigint "0.4.4") gets its example
    manifest with any version: the image carries one of each, Debian's; the agent is told
    which crates there are."""
    task = suite.task("rust/decimal")
    assert '+num-bigint = "*"' in task.reference_patch
    assert "0.4.4" not in task.reference_patch
    assert "the crates available are" in task.statement
    assert "num-bigint" in task.statement


def test_an_exercise_without_its_files_list_is_a_clear_error(tmp_path):
    meta = tmp_path / "go" / "exercises" / "practice" / "broken" / ".meta"
    meta.mkdir(parents=True)
    (meta / "config.json").write_text("{}")
    with pytest.raises(BenchmarkError, match=r"broken/\.meta/config\.json: not an exercise configuration"):
        load_suite(f"polyglot:{tmp_path}")
