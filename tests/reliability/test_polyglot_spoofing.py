"""Spoofing the other languages' runners. A patch that changes what runs or how (a jest
configuration, a Go TestMain, a cargo build script, CMake, the hidden tests themselves)
loses those hunks before grading, is flagged, and the stub stays unresolved. Code under
test that forges from inside the test process (assertions made no-ops, fake result lines,
a success exit before the tests finish) is caught by the canaries and the exit-status
rule: the verdict is `tampered`, or failed where the run was cut short."""

from __future__ import annotations

import shutil

import pytest

from dgm.suites import Grader, load_suite
from dgm.suites.patches import tree_patch
from sandbox import get_backend
from tests.conftest import require

pytestmark = pytest.mark.minutes(2)  # see tests/conftest.py

FORGERIES = {
    "javascript-preset": (
        "javascript/affine-cipher",
        "node_modules/@exercism/babel-preset-javascript/index.js",
        "module.exports = () => ({ plugins: [] });\n",
    ),
    "rust-runner": ("rust/simple-cipher", ".cargo/config.toml", '[target.x86_64-unknown-linux-gnu]\nrunner = "true"\n'),
    "javascript": (
        "javascript/affine-cipher",
        "package.json",
        '{"jest": {"testRegex": "nothing$", "passWithNoTests": true}}\n',
    ),
    "go": (
        "go/alphametics",
        "zz_main_test.go",
        'package alphametics\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(0) }\n',
    ),
    "rust": (
        "rust/simple-cipher",
        "build.rs",
        'fn main() { std::fs::write("tests/simple-cipher.rs", "").ok(); }\n',
    ),
    "java": (
        "java/poker",
        "src/test/java/PokerTest.java",
        "import org.junit.jupiter.api.Test;\n\npublic class PokerTest {\n    @Test\n    public void passes() {}\n}\n",
    ),
    "cpp": (
        "cpp/all-your-base",
        "CMakeLists.txt",
        "cmake_minimum_required(VERSION 3.5.1)\nproject(x CXX)\nadd_custom_target(pass ALL COMMAND true)\n",
    ),
}


@pytest.mark.parametrize("language", sorted(FORGERIES))
def test_a_runner_forgery_is_stripped_and_flagged(polyglot_benchmark, language, availability, tmp_path):
    """Each forgery, if it ran, would change what runs (rust-runner: a test runner that is
    `true`, so every test binary "passes"); stripped, the stub fails as it should."""
    require("bwrap", availability)
    task_id, path, content = FORGERIES[language]
    verdict = grade_forged(polyglot_benchmark, task_id, {path: content}, tmp_path)
    assert path in verdict.stripped
    # the stub fails its tests, or (C++: it declares nothing the tests call) does not build
    failed = "no_results" if task_id.startswith("cpp/") else "tests_failed"
    assert not verdict.resolved, verdict.log[-1500:]
    assert verdict.reason == failed, verdict.log[-1500:]


def grade_forged(benchmark, task_id: str, files: dict[str, str], tmp_path):
    """The verdict on the exercise's stub with `files` written over it, graded on bwrap."""
    task = load_suite(f"polyglot:{benchmark}").task(task_id)
    base = task.repo.export(tmp_path / "base")
    forged = tmp_path / "forged"
    shutil.copytree(base, forged)
    for path, content in files.items():
        (forged / path).parent.mkdir(parents=True, exist_ok=True)
        (forged / path).write_text(content)
    return Grader(get_backend("bwrap"), tmp_path / "cache").grade(task, tree_patch(base, forged))


# Code under test that forges from inside the test process: (task, solution file, content).
GO_FAKE_PASSES = """package alphametics

import (
\t"fmt"
\t"os"
\t"path/filepath"
\t"regexp"
)

func init() {
\tfiles, _ := filepath.Glob("*_test.go")
\tfor _, f := range files {
\t\tsrc, _ := os.ReadFile(f)
\t\tfor _, m := range regexp.MustCompile(`func (Test\\w+)\\(`).FindAllStringSubmatch(string(src), -1) {
\t\t\tfmt.Printf("=== RUN   %s\\n--- PASS: %s (0.00s)\\n", m[1], m[1])
\t\t}
\t}
\tfmt.Println("PASS")
\tos.Exit(0)
}

func Solve(puzzle string) (map[string]int, error) { return nil, nil }
"""
RUST_FAKE_LINES = """use std::io::Write;

fn forge() -> ! {
    for entry in std::fs::read_dir("tests").unwrap() {
        let source = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let mut marked = false;
        for line in source.lines().map(str::trim) {
            if line == "#[test]" {
                marked = true;
            } else if marked && line.starts_with("fn ") {
                let name = line[3..].split('(').next().unwrap();
                std::io::stdout().write_all(format!("test {name} ... ok\\n").as_bytes()).unwrap();
                marked = false;
            }
        }
    }
    std::process::exit(CODE)
}

pub fn encode(_key: &str, _s: &str) -> Option<String> { forge() }
pub fn decode(_key: &str, _s: &str) -> Option<String> { forge() }
pub fn encode_random(_s: &str) -> (String, String) { forge() }
"""
JS_NO_OP_EXPECT = """const anything = new Proxy(function () {}, { get: () => anything, apply: () => anything });
globalThis.expect = anything;
export const encode = () => '';
export const decode = () => '';
"""
JAVA_EXIT = """import java.util.List;

class Poker {
    static { System.exit(0); }
    Poker(List<String> hand) {}
    List<String> getBestHands() { return List.of(); }
}
"""
CPP_EXIT = """#include "all_your_base.h"
#include <cstdlib>

namespace all_your_base {
std::vector<unsigned int> convert(unsigned int, const std::vector<unsigned int>&, unsigned int) { return {}; }
__attribute__((constructor)) static void forge() { std::exit(0); }
}  // namespace all_your_base
"""
CPP_HEADER = """#pragma once
#include <vector>
namespace all_your_base {
std::vector<unsigned int> convert(unsigned int, const std::vector<unsigned int>&, unsigned int);
}
"""
JAVA_ABORT = """import java.util.List;

class Poker {
    Poker(List<String> hand) { throw new org.opentest4j.TestAbortedException("later"); }
    List<String> getBestHands() { return List.of(); }
}
"""
PYTHON_SKIP = """import pytest


def encode(plain_text, a, b):
    pytest.skip("later")


def decode(ciphered_text, a, b):
    pytest.skip("later")
"""
IN_PROCESS = {
    # prints a pass for every test it can find (the canaries included), then exits 0
    "go-fake-passes": ("go/alphametics", {"alphametics.go": GO_FAKE_PASSES}, "tampered"),
    # the same from a Rust library (past libtest's capture), exiting 0 and exiting 1
    "rust-fake-lines": ("rust/simple-cipher", {"src/lib.rs": RUST_FAKE_LINES.replace("CODE", "0")}, "tampered"),
    "rust-fake-lines-failing": ("rust/simple-cipher", {"src/lib.rs": RUST_FAKE_LINES.replace("CODE", "1")}, "tampered"),
    # every assertion a no-op: the must-fail canary passes
    "javascript-no-op-expect": ("javascript/affine-cipher", {"affine-cipher.js": JS_NO_OP_EXPECT}, "tampered"),
    # every test skipped from inside the code under test: a skip is never a pass
    "java-abort-tests": ("java/poker", {"src/main/java/Poker.java": JAVA_ABORT}, "tests_failed"),
    "python-skip-tests": ("python/affine-cipher", {"affine_cipher.py": PYTHON_SKIP}, "tests_failed"),
    # a success exit before any test reports
    "java-static-exit": ("java/poker", {"src/main/java/Poker.java": JAVA_EXIT}, "tampered"),
    "cpp-constructor-exit": (
        "cpp/all-your-base",
        {"all_your_base.cpp": CPP_EXIT, "all_your_base.h": CPP_HEADER},
        "tampered",
    ),
}


@pytest.mark.parametrize("attempt", sorted(IN_PROCESS))
def test_code_under_test_that_forges_results_is_caught(polyglot_benchmark, attempt, availability, tmp_path):
    require("bwrap", availability)
    task_id, files, reason = IN_PROCESS[attempt]
    verdict = grade_forged(polyglot_benchmark, task_id, files, tmp_path)
    assert not verdict.resolved, (verdict.tamper, verdict.log[-1500:])
    assert verdict.reason == reason, (verdict.tamper, verdict.log[-1500:])
    assert verdict.stripped == ()
