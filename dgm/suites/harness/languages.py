"""The non-pytest runners, one class each: how a language names a test, writes a canary
and places it in a test file, and which report its command leaves. The commands
themselves are the tasks' (see loaders/polyglot.py); `{report}` in them is a fresh path."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from .native import NativeHarness
from .reports import Parsed, go_json, jest_json, junit_xml, libtest


def _camel(words: tuple[str, ...]) -> str:
    return words[0] + "".join(w.capitalize() for w in words[1:])


class GoTestHarness(NativeHarness):
    """`go test -json`. The test files of a package share one namespace: the canaries go
    into one file, one that imports "testing" (a file of table data may not), or into a new
    test file of the same package where none does."""

    language = "go"
    suffixes = ("_test.go",)
    per_file = False

    def targets(self, task):
        files = super().targets(task)
        testing = [p for p in files if b'"testing"' in task.hidden_files[p]]
        return testing or [f"{f.removesuffix('_test.go')}_more_test.go" for f in files[:1]]

    def skeleton(self, task, target):
        first = task.hidden_files[super().targets(task)[0]].decode(errors="replace")
        package = re.search(r"^package \w+", first, re.M)
        return f'{package.group(0) if package else "package main"}\n\nimport "testing"\n'

    def style(self, words):
        return "Test" + "".join(w.capitalize() for w in words)

    def shared(self, task, base, tests):
        folders = {str(PurePosixPath(p).parent) for p in tests}
        found = {}
        for folder in folders:
            for path in sorted((base / folder).glob("*_test.go")) if (base / folder).is_dir() else []:
                rel = str(PurePosixPath(folder) / path.name) if folder != "." else path.name
                if rel not in tests and path.is_file() and not path.is_symlink():
                    found[rel] = path.read_bytes()
        return found

    def canary(self, name, values, total):
        joined = ", ".join(map(str, values))
        return (
            f"func {name}(t *testing.T) {{\n\tvalues := []int{{{joined}}}\n\ttotal := 0\n"
            f"\tfor _, v := range values {{\n\t\ttotal += v\n\t}}\n"
            f'\tif total != {total} {{\n\t\tt.Fatalf("got %d, want %d", total, {total})\n\t}}\n}}\n'
        )

    def key(self, target, name):
        return name

    def parse(self, output, report, hide) -> Parsed:
        return go_json(output, hide)


class CargoTestHarness(NativeHarness):
    """cargo test's libtest lines. Each file in tests/ is its own crate: canaries in each."""

    language = "rust"
    suffixes = (".rs",)
    markers = (b"#[test]",)

    def style(self, words):
        return "_".join(words)

    def canary(self, name, values, total):
        body = f"    let values = {values!r};\n    assert_eq!(values.iter().sum::<i32>(), {total});\n"
        return f"#[test]\nfn {name}() {{\n{body}}}\n"

    def key(self, target, name):
        return f"{target}::{name}"

    def parse(self, output, report, hide) -> Parsed:
        return libtest(output, hide)


class JunitHarness(NativeHarness):
    """JUnit's console launcher and its XML report. Canaries go in as methods of each test
    file's class (before its last closing brace), with fully qualified names."""

    language = "java"
    suffixes = (".java",)
    markers = (b"@Test",)
    report = "{report}.d/TEST-junit-jupiter.xml"

    def style(self, words):
        return _camel(words)

    def canary(self, name, values, total):
        joined = ", ".join(map(str, values))
        return (
            f"    @org.junit.jupiter.api.Test\n    public void {name}() {{\n        int[] values = {{{joined}}};\n"
            f"        org.junit.jupiter.api.Assertions.assertEquals({total}, java.util.Arrays.stream(values).sum());\n"
            "    }\n"
        )

    def insert(self, source, block):
        head, brace, tail = source.rpartition("}")
        return f"{head}\n{block}{brace}{tail}" if brace else source

    def key(self, target, name):
        return f"{PurePosixPath(target).stem}::{name}()"

    def parse(self, output, report, hide) -> Parsed:
        return junit_xml(report or "", hide)


class JestHarness(NativeHarness):
    """jest's JSON report. Each spec file is its own module: canaries in each."""

    language = "javascript"
    suffixes = (".spec.js", ".test.js")
    markers = (b"test(", b"it(")
    report = "{report}"

    def style(self, words):
        return " ".join(words)

    def canary(self, name, values, total):
        return (
            f"test('{name}', () => {{\n  const values = {values!r};\n"
            f"  expect(values.reduce((a, b) => a + b, 0)).toEqual({total});\n}});\n"
        )

    def key(self, target, name):
        return f"{target}::{name}"

    def parse(self, output, report, hide) -> Parsed:
        return jest_json(report or "", hide)


class CatchHarness(NativeHarness):
    """Catch's junit reporter. The test files link into one binary: canaries in one."""

    language = "cpp"
    suffixes = ("_test.cpp",)
    markers = (b"TEST_CASE",)
    per_file = False
    report = "{report}"

    def style(self, words):
        return "_".join(words)

    def canary(self, name, values, total):
        joined = ", ".join(map(str, values))
        summed = " + ".join(f"values[{i}]" for i in range(len(values)))
        return f'TEST_CASE("{name}") {{\n    int values[] = {{{joined}}};\n    REQUIRE({summed} == {total});\n}}\n'

    def key(self, target, name):
        return name

    def parse(self, output, report, hide) -> Parsed:
        return junit_xml(report or "", hide, plain_class=".global")
