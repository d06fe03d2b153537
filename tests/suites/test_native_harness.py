"""The other languages' harnesses, host side: canaries written into the hidden test files
in each language's style (and never into the task's own copy), each runner's report read
into per-test statuses, and the rules that make a forged or cut-short run fail: a canary
with the wrong status or an exit status of 0 is tampering, missing canaries fail the file."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from dgm.suites import BenchmarkError, load_suite
from dgm.suites.harness import harness_for
from dgm.suites.harness.reports import go_json, jest_json, junit_xml, libtest

ONE_PER_LANGUAGE = {
    "go": "go/alphametics",
    "rust": "rust/simple-cipher",
    "java": "java/poker",
    "javascript": "javascript/affine-cipher",
    "cpp": "cpp/all-your-base",
}


@pytest.fixture(scope="module")
def suite(polyglot_benchmark):
    return load_suite(f"polyglot:{polyglot_benchmark}")


@pytest.mark.parametrize("language", sorted(ONE_PER_LANGUAGE))
def test_canaries_join_the_hidden_tests_of_this_run_only(suite, language, tmp_path):
    task = suite.task(ONE_PER_LANGUAGE[language])
    run = harness_for(task).prepare(task, tmp_path)
    must_pass, must_fail = run.state.names
    assert must_pass != must_fail
    assert "{report}" not in run.command
    for target in run.state.targets:
        written = run.hidden[target].decode()
        assert must_pass in written
        assert must_fail in written
        assert must_pass not in task.hidden_files[target].decode()  # the task's own copy is untouched
    again = harness_for(task).prepare(task, tmp_path)
    assert again.state.names != run.state.names
    assert again.state.nonce != run.state.nonce


def test_each_language_names_its_canaries_in_its_own_style(suite, tmp_path):
    styles = {
        "go": r"Test[A-Z][a-z]+[A-Z][a-z]+[A-Z][a-z]+",
        "rust": r"[a-z]+_[a-z]+_[a-z]+",
        "java": r"[a-z]+[A-Z][a-z]+[A-Z][a-z]+",
        "javascript": r"[a-z]+ [a-z]+ [a-z]+",
        "cpp": r"[a-z]+_[a-z]+_[a-z]+",
    }
    for language, pattern in styles.items():
        task = suite.task(ONE_PER_LANGUAGE[language])
        names = harness_for(task).prepare(task, tmp_path).state.names
        assert all(re.fullmatch(pattern, n) for n in names), (language, names)


def test_java_canaries_are_methods_of_the_test_class(suite, tmp_path):
    task = suite.task("java/poker")
    run = harness_for(task).prepare(task, tmp_path)
    written = run.hidden["src/test/java/PokerTest.java"].decode()
    assert written.rstrip().endswith("}")
    assert written.index(run.state.names[0]) > written.index("class PokerTest")


def test_a_java_test_helper_that_holds_no_tests_gets_no_canaries(suite, tmp_path):
    task = suite.task("java/ledger")  # LocaleExtension.java is a JUnit extension, not a test class
    assert "src/test/java/LocaleExtension.java" in task.hidden_files
    run = harness_for(task).prepare(task, tmp_path)
    assert list(run.state.targets) == ["src/test/java/LedgerTest.java"]
    assert run.hidden["src/test/java/LocaleExtension.java"] == task.hidden_files["src/test/java/LocaleExtension.java"]


def test_go_without_a_testing_file_gets_a_new_test_file_in_its_package(suite, tmp_path):
    task = suite.task("go/counter")  # its only test file is a placeholder without imports
    run = harness_for(task).prepare(task, tmp_path)
    (target,) = run.state.targets
    assert target not in task.hidden_files
    assert run.hidden[target].decode().startswith('package counter\n\nimport "testing"')


def test_a_task_without_test_files_of_the_runners_language_is_refused(suite):
    task = dataclasses.replace(suite.task("python/affine-cipher"), log_parser="junit")
    with pytest.raises(BenchmarkError, match=r"python/affine-cipher: the junit harness needs hidden test files"):
        harness_for(task).check(task)


def go_events(results: dict[str, str]) -> str:
    lines = []
    for test, action in results.items():
        lines.append({"Action": "run", "Test": test})
        lines.append({"Action": "output", "Test": test, "Output": f"--- {action.upper()}: {test}\n"})
        lines.append({"Action": action, "Test": test})
    return "\n".join(json.dumps({"Package": "alphametics", **e}) for e in lines) + "\nFAIL\talphametics\n"


def read_go(suite, tmp_path, statuses, exit_code=1):
    task = suite.task("go/alphametics")
    harness = harness_for(task)
    run = harness.prepare(task, tmp_path)
    must_pass, must_fail = run.state.names
    results = {"TestSolve": "pass", "TestSolve/case": "pass"}
    results.update({name: s for name, s in zip((must_pass, must_fail), statuses, strict=True) if s})
    return run, harness.read(task, run, go_events(results), exit_code)


def test_a_genuine_run_reads_its_tests_and_hides_the_canaries(suite, tmp_path):
    run, reading = read_go(suite, tmp_path, ("pass", "fail"))
    assert reading.tests == {"TestSolve": "PASSED", "TestSolve/case": "PASSED"}
    assert reading.tamper == ()
    assert not any(name in reading.log for name in run.state.names)
    assert "--- PASS: TestSolve" in reading.log


@pytest.mark.parametrize("statuses", [("pass", "pass"), ("fail", "fail"), ("skip", "fail")])
def test_a_canary_with_the_wrong_status_is_tampering(suite, tmp_path, statuses):
    _, reading = read_go(suite, tmp_path, statuses)
    assert reading.tamper
    assert "canary" in reading.tamper[0]


def test_missing_canaries_fail_the_file_without_accusing(suite, tmp_path):
    _, reading = read_go(suite, tmp_path, (None, None))
    assert reading.tests["alphametics_test.go::(incomplete)"] == "FAILED"
    assert reading.tamper == ()


def test_a_success_exit_status_is_tampering_whatever_was_printed(suite, tmp_path):
    _, reading = read_go(suite, tmp_path, ("pass", "fail"), exit_code=0)
    assert any("exited 0" in t for t in reading.tamper)
    task = suite.task("go/alphametics")
    run = harness_for(task).prepare(task, tmp_path)
    assert harness_for(task).read(task, run, "", 0).tamper  # nothing at all, but success


def test_a_report_framed_more_than_once_is_tampering(suite, tmp_path):
    task = suite.task("javascript/affine-cipher")
    harness = harness_for(task)
    run = harness.prepare(task, tmp_path)
    frame = f"@@dgm-report {run.state.nonce} begin@@\n{{}}\n@@dgm-report {run.state.nonce} end@@\n"
    assert "frame appears 2 times" in harness.read(task, run, frame * 2, 1).tamper[0]
    assert harness.read(task, run, frame, 1).tests == {}  # once, but empty: no results


LIBTEST = """\
   Compiling cipher v0.1.0 (/repo)
     Running unittests src/lib.rs (target/debug/deps/cipher-1)

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/cipher.rs (target/debug/deps/cipher-2)

running 3 tests
test encodes ... ok
test decodes ... FAILED
test keeps_empty_value ... FAILED

failures:

---- keeps_empty_value stdout ----
thread 'keeps_empty_value' panicked at tests/cipher.rs:40:5:
assertion `left == right` failed
  left: 10
 right: 14

---- decodes stdout ----
thread 'decodes' panicked at src/lib.rs:2:5:
not yet implemented

failures:
    decodes
    keeps_empty_value

test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests cipher

running 1 test
test src/lib.rs - encode (line 3) ... ok
"""


def test_libtest_keys_tests_by_target_and_recounts_without_hidden_ones():
    parsed = libtest(LIBTEST, hide=("keeps_empty_value",))
    assert parsed.tests == {
        "tests/cipher.rs::encodes": "PASSED",
        "tests/cipher.rs::decodes": "FAILED",
        "tests/cipher.rs::keeps_empty_value": "FAILED",
        "doc:cipher::src/lib.rs - encode (line 3)": "PASSED",
    }
    assert "keeps_empty_value" not in parsed.log
    assert "right: 14" not in parsed.log
    assert "not yet implemented" in parsed.log
    assert "test result: FAILED. 1 passed; 1 failed; 0 ignored" in parsed.log


def test_junit_xml_for_java_and_catch_and_a_broken_report():
    java = (
        '<testsuite><testcase name="bestHand()" classname="poker.PokerTest"/>'
        '<testcase name="pair()" classname="PokerTest"><failure message="no">expected: 1\n\tat Foo.bar()</failure>'
        '</testcase><testcase name="later()" classname="PokerTest"><skipped/></testcase></testsuite>'
    )
    parsed = junit_xml(java)
    assert parsed.tests == {
        "PokerTest::bestHand()": "PASSED",
        "PokerTest::pair()": "FAILED",
        "PokerTest::later()": "SKIPPED",
    }
    assert "expected: 1" in parsed.log
    assert "Foo.bar" not in parsed.log
    catch = '<testsuites><testsuite><testcase classname="x.global" name="one"/></testsuite></testsuites>'
    assert junit_xml(catch, plain_class=".global").tests == {"one": "PASSED"}
    assert junit_xml("<testsuite><testcase").tests == {}


FAILURE = "Error: no\n    at x (a.js:1)"


def test_jest_json_keys_by_file_and_fails_a_file_that_did_not_run():
    report = {
        "testResults": [
            {
                "name": "/repo/a.spec.js",
                "status": "failed",
                "assertionResults": [
                    {"fullName": "cipher encodes", "status": "passed"},
                    {"fullName": "cipher decodes", "status": "failed", "failureMessages": [FAILURE]},
                    {"fullName": "cipher later", "status": "pending"},
                ],
            },
            {"name": "/repo/b.spec.js", "status": "failed", "message": "SyntaxError", "assertionResults": []},
        ]
    }
    parsed = jest_json(json.dumps(report))
    assert parsed.tests == {
        "a.spec.js::cipher encodes": "PASSED",
        "a.spec.js::cipher decodes": "FAILED",
        "a.spec.js::cipher later": "SKIPPED",
        "b.spec.js::(file)": "FAILED",
    }
    assert "Error: no" in parsed.log
    assert "a.js:1" not in parsed.log
    assert "SyntaxError" in parsed.log
    assert jest_json("not json").tests == {}


def test_go_json_keeps_build_errors_and_drops_hidden_tests_output():
    output = go_events({"TestA": "pass", "TestHidden": "fail"}) + "./x.go:3:1: syntax error\n"
    parsed = go_json(output, hide=("TestHidden",))
    assert parsed.tests == {"TestA": "PASSED", "TestHidden": "FAILED"}
    assert "TestHidden" not in parsed.log
    assert "syntax error" in parsed.log
