"""Spoofing the other languages' runners: a patch that changes what runs or how (a jest
configuration, a Go TestMain, a cargo build script, CMake, the hidden tests themselves)
loses those hunks before grading, is flagged, and the stub stays unresolved.

Not covered yet, and not claimed: code under test that ends its process with a success
status before the tests finish (a static initializer calling exit(0), say) is believed by
these runners' exit-status verdicts; per-test reading for them is still to come."""

from __future__ import annotations

import shutil

import pytest

from dgm.suites import Grader, load_suite
from dgm.suites.patches import tree_patch
from sandbox import get_backend
from tests.conftest import require

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
    task = load_suite(f"polyglot:{polyglot_benchmark}").task(task_id)
    base = task.repo.export(tmp_path / "base")
    forged = tmp_path / "forged"
    shutil.copytree(base, forged)
    (forged / path).parent.mkdir(parents=True, exist_ok=True)
    (forged / path).write_text(content)
    verdict = Grader(get_backend("bwrap"), tmp_path / "cache").grade(task, tree_patch(base, forged))
    assert path in verdict.stripped
    assert not verdict.resolved and verdict.reason == "tests_failed", verdict.log[-1500:]
