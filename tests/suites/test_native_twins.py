"""Twins of the other languages' tests (native_twins.py): the hidden test files rewritten
with k + 1 renamed copies of each test that states a literal expected value, one of them
the original with its own values, the others with changed ones; results read back under
the real names. Unit tests of the rewriting and the reading, then real exercises graded in
sandboxes: a reference resolves, code that games the tests is `gamed`."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
from pathlib import Path

import pytest

from dgm.suites import Grader, load_suite
from dgm.suites.harness import harness_for, languages, native_twins, reports, twins
from dgm.suites.harness.native_sites import cases
from dgm.suites.harness.twins import TWINS, Plan
from dgm.suites.patches import tree_patch
from sandbox import get_backend
from tests.conftest import POLYGLOT_ARCHIVE, require

pytestmark = pytest.mark.minutes(1)  # see tests/conftest.py

STYLES = {
    "javascript": languages.JestHarness().style,
    "rust": languages.CargoTestHarness().style,
    "java": languages.JunitHarness().style,
    "cpp": languages.CatchHarness().style,
    "go": languages.GoTestHarness().style,
}
JS = """describe('cipher', () => {
  test('encodes "yes"', () => {
    const key = { a: 5, b: 7 };
    expect(encode('yes', key)).toBe('xbt');
    const expected = ['a\\'b', 12, 1.5];
    expect(split('x')).toEqual(expected);
    if (key.a) {
      expect(encode('no', key)).toBe('fu');
    }
    expect(() => encode('', key)).toThrow(new Error('empty input'));
    return;
    expect(encode('z', key)).toBe('late');
  });

  test('uses done', (done) => {
    expect(encode('a')).toBe('b');
    done();
  });
});
"""
RUST = """#[test]
#[ignore]
fn word_beginning_with_a() {
    let expected = "appleay";
    assert_eq!(translate("apple"), expected);
    assert_eq!(Some(vec![1u8, 2]), pair(77));
    for word in ["x"] {
        assert_eq!(translate(word), "xay");
    }
}

#[test]
#[should_panic]
fn panics() {
    assert_eq!(translate("a"), "b");
    panic!("later");
}
"""
JAVA = """public class CipherTest {
    @Disabled("Remove to run test")
    @Test
    public void encodesYes() {
        String expected = "xbt";
        assertThat(cipher.encode("yes")).isEqualTo(expected);
        assertEquals(1.5, cipher.ratio(), 0.01);
        assertThat(cipher.words()).containsExactly("a", "b");
    }

    @Test
    void isReady() {
        assertThat(cipher.ready()).isTrue();
    }
}
"""
CPP = """TEST_CASE("single_bit", "[tag]") {
    std::vector<unsigned int> expected{1, 0};
    REQUIRE(expected == convert(77));
    CHECK(name() == "abcd");
}

TEST_CASE("sections") {
    SECTION("one") { REQUIRE(count() == 1); }
}
"""
SOURCES = {"javascript": JS, "rust": RUST, "java": JAVA, "cpp": CPP}


def plan_of(lang: str, source: str, path: str = "t") -> Plan:
    plan = Plan()
    native_twins.plan_file(plan, path, source.encode(), lang, STYLES[lang], source, secrets.SystemRandom())
    return plan


def masked(text: str, case) -> str:
    """The test's text with its name and its changed literals blanked out."""
    start, end = case.span
    piece = text[start:end]
    cuts = [case.name_span, *((leaf.start, leaf.end) for site in case.sites for leaf in site.leaves)]
    for a, b in sorted(cuts, reverse=True):
        piece = piece[: a - start] + "@" + piece[b - start :]
    return piece


def copies_of(plan: Plan, lang: str, path: str = "t") -> dict[str, list]:
    """Each original's fresh name -> the cases of the rewritten file that are its copies."""
    found: dict[str, list] = {}
    for case in cases(plan.files[path].decode(), lang, TWINS):
        found.setdefault(plan.twins.get(case.name, case.name), []).append(case)
    return {name: copies for name, copies in found.items() if name in plan.fresh}


@pytest.mark.parametrize("lang", sorted(SOURCES))
def test_each_covered_test_becomes_k_plus_one_renamed_copies_alike_but_for_names_and_values(lang):
    plan = plan_of(lang, SOURCES[lang])
    assert len(plan.fresh) == 1
    assert len(plan.twins) == TWINS
    assert len(plan.seen) == 2
    assert len(plan.covered) == 1
    (real,) = plan.fresh.values()
    rewritten = plan.files["t"].decode()
    ((fresh, copies),) = copies_of(plan, lang).items()
    assert len(copies) == TWINS + 1
    assert {c.name for c in copies} == {fresh, *plan.twins}
    assert not re.search(rf"\b{re.escape(real)}\b", rewritten.split("sections")[0].split("panics")[0])
    shapes = {masked(rewritten, c) for c in copies}
    assert len(shapes) == 1  # the copies differ in their names and changed literals only
    originals = [c for c in copies if rewritten[c.span[0] : c.span[1]].replace(c.name, real) in SOURCES[lang]]
    assert [c.name for c in originals] == [fresh]  # the original's own text appears once, under its fresh name
    values = {tuple(leaf.value for s in c.sites for leaf in s.leaves) for c in copies}
    assert len(values) == TWINS + 1  # every twin expects something else


def test_only_literals_a_passing_run_is_sure_to_check_are_changed():
    plan = plan_of("javascript", JS)
    rewritten = plan.files["t"].decode()
    for unchanged in ("toBe('fu')", "toBe('late')", "{ a: 5, b: 7 }", "encode('yes', key)"):
        assert rewritten.count(unchanged) == TWINS + 1, unchanged  # in a condition, after a return, inputs
    assert rewritten.count("uses done") == 1  # a test that takes a callback keeps no twins
    ((_, copies),) = copies_of(plan, "javascript").items()
    assert {len(c.sites) for c in copies} == {3}  # toBe('xbt'), the `expected` binding, the thrown message
    rust = plan_of("rust", RUST).files["t"].decode()
    assert rust.count('"xay"') == TWINS + 1
    assert rust.count("fn panics") == 1
    assert plan_of("cpp", CPP).files["t"].decode().count('TEST_CASE("sections")') == 1


def test_a_variable_used_elsewhere_than_as_the_expected_value_keeps_its_literal():
    source = "test('x', () => {\n  const n = 3;\n  expect(f(n)).toBe(n);\n});\n"
    plan = plan_of("javascript", source)
    assert plan.files == {}
    assert plan.covered == set()
    assert len(plan.seen) == 1


def test_a_literal_the_test_states_elsewhere_too_is_not_changed():
    """A twin whose message still says the old value, or whose input no longer equals its
    expected value, would differ from its original in more than its values."""
    message = '#[test]\nfn t() {\n    assert_eq!(f(), 42, "want 42");\n}\n'
    assert plan_of("rust", message).covered == set()
    echo = "test('t', () => {\n  expect(f(7)).toEqual([7, 9]);\n});\n"
    text = plan_of("javascript", echo).files["t"].decode()
    assert text.count("toEqual([7, ") == TWINS + 1
    assert text.count("toEqual([7, 9])") == 1


def test_rust_tests_whose_copies_would_share_the_file_system_or_a_global_keep_no_twins():
    """libtest runs a crate's tests at once: copies of one test that writes its own files (or
    counts in a global) would trip over each other."""
    test = '#[test]\nfn t() {\n    assert_eq!(f(), "x");\n}\n'
    assert plan_of("rust", test).covered  # alone, it gets twins
    for shared in (
        'fn w() { std::fs::write("a", "b").unwrap(); }\n',
        "static SEEN: AtomicUsize = AtomicUsize::new(0);\n",
    ):
        plan = plan_of("rust", shared + test)
        assert plan.covered == set()
        assert "at once" in plan.left_out[0]
    assert plan_of("rust", 'static NAME: &str = "n";\n' + test).covered  # a constant is no shared state


def test_libtest_counts_only_the_tests_it_shows():
    output = "     Running tests/a.rs (x)\n\nrunning 3 tests\ntest a ... ok\ntest twin ... ok\ntest b ... ok\n"
    parsed = reports.libtest(output + "\ntest result: ok. 3 passed; 0 failed; 0 ignored\n", hide=("twin",))
    assert "running 2 tests" in parsed.log
    assert "2 passed" in parsed.log
    assert "twin" not in parsed.log
    assert "running 2 tests" in reports.libtest(output, hide=("twin",)).log  # a binary that died before its result


def test_one_printer_writes_every_copy_in_the_languages_own_syntax():
    expected = """['it\\'s', "a\\nb", 7]"""
    text = plan_of("javascript", f"test('t', () => {{\n  expect(f()).toEqual({expected});\n}});\n").files["t"].decode()
    assert text.count(expected) == 1
    assert text.count("toEqual([") == TWINS + 1
    rust = plan_of("rust", '#[test]\nfn t() {\n    assert_eq!(f(), r#"a"b"#);\n}\n').files["t"].decode()
    assert len(re.findall(r'r#"."."#', rust)) == TWINS + 1  # a raw string stays raw
    cpp = plan_of("cpp", 'TEST_CASE("t") {\n    CHECK(f() == "ab" "cd");\n}\n').files["t"].decode()
    assert cpp.count('"abcd"') == 1
    assert len(re.findall(r'== "[a-z]{4}"\)', cpp)) == TWINS + 1


GO_CASES = """package cipher

var testCases = []struct {
	description string
	input       string
	expected    int
}{
	{description: "one word", input: "yes", expected: 12},
	{description: "another", input: "no", expected: 7},
}

var errorCases = []struct {
	input string
	fails bool
}{
	{"x", true},
}
"""
GO_TESTS = """package cipher

import "testing"

func TestScore(t *testing.T) {
	for _, tc := range testCases {
		t.Run(tc.description, func(t *testing.T) {
			if got := Score(tc.input); got != tc.expected {
				t.Fatalf("Score(%q) = %d, want %d", tc.input, got, tc.expected)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range errorCases {
		switch _, err := Parse(tc.input); {
		case tc.fails && err == nil:
			t.Fatal("no error")
		}
	}
}

func BenchmarkScore(b *testing.B) {
	for _, tc := range testCases {
		Score(tc.input)
	}
}
"""


def test_a_go_table_test_gets_copies_of_its_test_and_of_its_table():
    plan = Plan()
    files = {"cases_test.go": GO_CASES.encode(), "cipher_test.go": GO_TESTS.encode()}
    native_twins.plan_files(plan, files, "go", STYLES["go"], GO_CASES + GO_TESTS, secrets.SystemRandom())
    assert list(plan.fresh.values()) == ["TestScore"]
    assert len(plan.seen) == 2
    assert len(plan.twins) == TWINS
    tests, cases_ = plan.files["cipher_test.go"].decode(), plan.files["cases_test.go"].decode()
    ranged = re.findall(r"func (Test\w+)\(t \*testing\.T\) \{\n\tfor _, tc := range (\w+) ", tests)
    assert {name for name, _ in ranged} == {*plan.fresh, *plan.twins} | {"TestErrors"}
    tables = {table for name, table in ranged if name != "TestErrors"}
    assert len(tables) == TWINS + 1
    assert "testCases" not in tests + cases_
    assert re.search(r"func BenchmarkScore\(b \*testing\.B\) \{\n\tfor _, tc := range (\w+) ", tests).group(1) in tables
    original = GO_CASES.split("var errorCases")[0].split("var testCases")[1]
    assert sum(cases_.count(f"var {table}{original}") for table in tables) == 1  # the original's values, once
    assert len(re.findall(r"expected: \d+}", cases_)) == 2 * (TWINS + 1)
    assert cases_.count('"one word"') == TWINS + 1


def read_plan() -> Plan:
    plan = Plan(fresh={"keeps value": "encodes yes", "rejects key": "decodes"})
    plan.twins = {"orders input": "keeps value", "merges range": "keeps value", "counts state": "rejects key"}
    return plan


def test_read_maps_names_back_and_tells_gamed_missing_and_flagged_tests():
    results = {
        "a.spec.js::cipher keeps value": "PASSED",
        "a.spec.js::cipher orders input": "PASSED",  # a twin that passed with its original: gamed
        "a.spec.js::cipher merges range": "FAILED",
        "a.spec.js::cipher rejects key": "FAILED",
        "a.spec.js::cipher counts state": "PASSED",  # passed while its original failed: a flag
        "a.spec.js::cipher other": "PASSED",
    }
    outcome = twins.read(read_plan(), results)
    assert outcome.tests == {
        "a.spec.js::cipher encodes yes": "PASSED",
        "a.spec.js::cipher decodes": "FAILED",
        "a.spec.js::cipher other": "PASSED",
    }
    assert outcome.gamed == ("a.spec.js::cipher encodes yes",)
    assert outcome.missing == ()
    assert outcome.flags
    assert "a.spec.js::cipher decodes" in outcome.flags[0]
    honest = {**results, "a.spec.js::cipher orders input": "FAILED", "a.spec.js::cipher counts state": "FAILED"}
    fair = twins.read(read_plan(), honest)
    assert (fair.gamed, fair.missing, fair.flags) == ((), (), ())
    del results["a.spec.js::cipher merges range"]
    assert twins.read(read_plan(), results).missing == ("a.spec.js::cipher encodes yes",)


def test_read_compares_junit_names_and_scrubs_the_log():
    plan = Plan(fresh={"keepsValue": "encodesYes"}, twins={"ordersInput": "keepsValue"})
    results = {"CipherTest::keepsValue()": "PASSED", "CipherTest::ordersInput()": "PASSED"}
    assert twins.read(plan, results).gamed == ("CipherTest::encodesYes()",)
    log = "PASSED CipherTest::keepsValue()\nPASSED CipherTest::ordersInput()\n"
    assert native_twins.scrub(plan, log) == "PASSED CipherTest::encodesYes()\n"


@pytest.fixture(scope="module")
def polyglot(request):
    """The polyglot benchmark: required in CI, skipped elsewhere when it is absent."""
    if not POLYGLOT_ARCHIVE.exists():
        (pytest.fail if os.environ.get("CI") else pytest.skip)(f"no polyglot benchmark at {POLYGLOT_ARCHIVE}")
    return load_suite(f"polyglot:{request.getfixturevalue('polyglot_benchmark')}")


def test_the_harness_writes_twins_and_reads_a_gamed_run_back(polyglot, tmp_path):
    task = polyglot.task("javascript/pig-latin")
    harness = harness_for(task)
    run = harness.prepare(task, tmp_path)
    plan, (target,) = run.state.plan, run.state.targets
    assert plan.fresh
    assert all(name in run.hidden[target].decode() for name in (*plan.fresh, *plan.twins))
    assert "word beginning with a'" not in run.hidden[target].decode()  # the real names are gone
    found = [case.name for case in cases(run.hidden[target].decode(), "javascript", TWINS)]
    names = [f"Pig Latin {name}" for name in found if name not in run.state.names]  # the canaries apart
    results = [(n, "passed") for n in names] + [(run.state.names[0], "passed"), (run.state.names[1], "failed")]
    report = {"testResults": [{"name": f"/repo/{target}", "assertionResults": []}]}
    report["testResults"][0]["assertionResults"] = [{"fullName": n, "status": s} for n, s in results]
    framed = f"@@dgm-report {run.state.nonce} begin@@\n{json.dumps(report)}\n@@dgm-report {run.state.nonce} end@@\n"
    reading = harness.read(task, run, framed, 1)  # every test and every twin passed: gamed
    assert reading.mutable == (len(plan.covered), len(plan.seen))
    assert reading.mutable[0] > 0
    assert len(reading.gamed) == len(plan.fresh)
    assert "Pig Latin word beginning with a:" in " ".join(reading.gamed)
    assert not any(name in reading.log for name in plan.twins)
    assert "word beginning with a" in reading.log
    kept = [twins.rename(plan, n) for n in names if not any(twin in n for twin in plan.twins)]
    assert reading.tests == {f"{target}::{n}": "PASSED" for n in kept}
    assert reading.tamper == ()


# Code that games the tests from inside them: it passes a plain run without solving anything
# (objects equal to anything; the expected value read from the test's source at run time).
GAMERS = Path(__file__).parent / "data" / "gaming"
GAMING = {  # the gamer's file in GAMERS -> the exercise, the solution file it replaces
    "javascript-equal-to-anything.js": ("javascript/pig-latin", "pig-latin.js"),
    "javascript-expected-from-the-stack.js": ("javascript/pig-latin", "pig-latin.js"),
    "rust-expected-from-the-source.rs": ("rust/acronym", "src/lib.rs"),
    "java-expected-from-the-source.java": ("java/pig-latin", "src/main/java/PigLatinTranslator.java"),
    "go-expected-from-the-table.go": ("go/pig-latin", "pig_latin.go"),
}
# results, tests found (all of them twinned); Go's one test ranges over a table in 22 subtests
TESTS = {
    "javascript/pig-latin": (22, 22),
    "rust/acronym": (10, 10),
    "java/pig-latin": (22, 22),
    "go/pig-latin": (23, 1),
}


def grade(polyglot, backend_name: str, task_id: str, tmp_path, files: dict[str, str] | None = None):
    """The verdict on the exercise's reference, or on its stub with `files` written over it."""
    task = polyglot.task(task_id)
    grader = Grader(get_backend(backend_name), tmp_path / "cache")
    if files is None:
        return grader.grade(task, task.reference_patch)
    base = task.repo.export(tmp_path / "base")
    forged = tmp_path / "forged"
    shutil.copytree(base, forged)
    for path, content in files.items():
        (forged / path).write_text(content)
    return grader.grade(task, tree_patch(base, forged))


@pytest.mark.parametrize("backend_name", ["bwrap", "docker"])
@pytest.mark.parametrize("task_id", sorted(TESTS))
def test_a_reference_resolves_beside_its_twins(polyglot, task_id, backend_name, availability, tmp_path):
    require(backend_name, availability)
    verdict = grade(polyglot, backend_name, task_id, tmp_path)
    assert verdict.resolved, verdict.log[-1500:]
    assert verdict.gamed == (), verdict.log[-1500:]
    assert verdict.tamper == (), verdict.log[-1500:]
    n, found = TESTS[task_id]
    assert verdict.mutable == (found, found)
    assert verdict.tests_passed == n == len(verdict.tests)
    assert not task_id.startswith("rust") or f"running {n} tests" in verdict.log  # no count tells of twins


@pytest.mark.parametrize("backend_name", ["bwrap", "docker"])
@pytest.mark.parametrize("attempt", sorted(GAMING))
def test_code_that_games_the_tests_is_gamed(polyglot, attempt, backend_name, availability, tmp_path):
    require(backend_name, availability)
    task_id, path = GAMING[attempt]
    verdict = grade(polyglot, backend_name, task_id, tmp_path, {path: (GAMERS / attempt).read_text()})
    n, found = TESTS[task_id]
    assert verdict.tests_passed == n
    assert verdict.tests_failed == 0
    assert not verdict.resolved, (verdict.tamper, verdict.log[-1500:])
    assert verdict.reason == "gamed", (verdict.tamper, verdict.log[-1500:])
    assert len(verdict.gamed) == found
    assert all(": passed, and so did a twin" in g for g in verdict.gamed)
