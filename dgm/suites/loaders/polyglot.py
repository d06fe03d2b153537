"""Aider's polyglot-benchmark exercise folders: LANG/exercises/practice/NAME/ with
.docs/instructions*.md (the statement), .meta/config.json (solution, test and example
files), stub solution files (the base), test files (hidden) and .meta/example.* (the
reference). A task is resolved when every test of the exercise passes, skipped ones
included (the exercises skip all but the first test until a student unskips them, and
JavaScript's skip two slow ones on exercism's runner).

Python runs in the base sandbox image; C++, Go, Java, JavaScript and Rust in the
`polyglot` variant (`dgm sandbox build --variant polyglot`), offline: Go with no module
proxy, cargo from Debian's vendored crates, Java through JUnit's console launcher (no
gradle), jest from the variant's /node_modules, CMake with the exercises' vendored Catch."""

from __future__ import annotations

import hashlib
import json
import logging
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sandbox.variant import VARIANTS

from ..patches import tree_patch
from ..suite import Suite
from ..task import BenchmarkError, RepoSource, Task

log = logging.getLogger(__name__)
JAVA_CP = ":".join(f"/usr/share/java/{jar}.jar" for jar in ("junit-platform-console-standalone", "assertj-core"))


@dataclass(frozen=True)
class Language:
    """How one language's exercises are tested: the command (run in /repo; {exercise} is the
    exercise's folder name, {report} the report's path), the harness that reads its results
    (`log_parser`), its time limit, the image variant it needs (None: the base image), the
    hidden tests as the grader runs them, and what the agent is told beyond the statement."""

    name: str
    command: str
    log_parser: str
    timeout: float
    variant: str | None = "polyglot"
    unskip: tuple[tuple[str, str], ...] = ()  # text replacements that turn skipped tests on
    note: str = ""

    def hidden(self, content: bytes) -> bytes:
        text = content.decode()
        for old, new in self.unskip:
            text = text.replace(old, new)
        return text.encode()


CRATES = "anyhow, itertools, num-bigint, num-traits, permutohedron, rand, regex, thiserror, time"
LANGUAGES: dict[str, Language] = {
    lang.name: lang
    for lang in (
        Language(
            "python", "python3 -m pytest -rfEsxXp --show-capture=no -q -p no:cacheprovider {tests}", "pytest", 120, None
        ),
        Language(
            "go",
            "cp -r /opt/dgm/go-cache /tmp/go-cache && GOCACHE=/tmp/go-cache GOPATH=/tmp/go GOPROXY=off"
            " GOFLAGS=-mod=mod GOTOOLCHAIN=local GOTELEMETRY=off go test -json ./...",
            "go_test",
            300,
        ),
        Language(
            "rust",
            "mkdir -p /tmp/cargo && cp /opt/dgm/cargo-config.toml /tmp/cargo/config.toml && CARGO_HOME=/tmp/cargo"
            " CARGO_TARGET_DIR=/tmp/target RUST_BACKTRACE=0"
            " cargo test --offline --no-fail-fast -- --include-ignored 2>&1",
            "cargo_test",
            600,
            note=f"Builds are offline: the crates available are {CRATES} (one version each; "
            'ask for them as `name = "*"` in Cargo.toml).',
        ),
        Language(
            "java",
            f"mkdir -p /tmp/classes && javac -encoding UTF-8 -nowarn -d /tmp/classes -cp {JAVA_CP}"
            " $(find src -name '*.java') && java -jar /usr/share/java/junit-platform-console-standalone.jar"
            f" -cp /tmp/classes:{JAVA_CP} --scan-classpath --disable-banner --details=none --fail-if-no-tests"
            " --config=junit.jupiter.conditions.deactivate='org.junit.*DisabledCondition' --reports-dir {report}.d"
            # the launcher's own summary would show the canaries: kept only when no report came
            " >{report}.log 2>&1 || { code=$?; [ -s {report}.d/TEST-junit-jupiter.xml ]"
            " || tail -c 20000 {report}.log 2>/dev/null; exit $code; }",
            "junit",
            300,
            note="Libraries on the class path: JUnit 5 and AssertJ.",
        ),
        Language(
            "javascript",  # jest's own console output would show the canaries: kept only when no report came
            "HOME=/tmp node /node_modules/jest/bin/jest.js --ci --rootDir /repo --json --outputFile {report}"
            " 2>{report}.log || { code=$?; [ -s {report} ] || tail -c 20000 {report}.log 2>/dev/null; exit $code; }",
            "jest",
            180,
            unskip=(("xtest(", "test("), ("xit(", "it("), ("xdescribe(", "describe("), (".skip(", "(")),
        ),
        Language(
            "cpp",  # the exercise's CMakeLists names its target after the folder
            "ln -sfn /repo /tmp/{exercise} && mkdir -p /tmp/build && cd /tmp/build"
            " && cmake -DEXERCISM_RUN_ALL_TESTS=1 /tmp/{exercise} >/dev/null && make {exercise}"
            " && ./{exercise} --reporter junit --out {report}",
            "catch",
            300,
        ),
    )
}


def exercise_dirs(root: Path) -> list[tuple[str, Path]]:
    found = []
    for lang_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        practice = lang_dir / "exercises" / "practice"
        if practice.is_dir():
            found += [(lang_dir.name, d) for d in sorted(practice.iterdir()) if (d / ".meta" / "config.json").exists()]
    return found


def split_of(name: str) -> str:
    """A fixed, seeded 80/20 split by exercise name."""
    return "test" if int(hashlib.sha256(name.encode()).hexdigest(), 16) % 5 == 0 else "dev"


def pairs(files: dict) -> list[tuple[str, str]]:
    """(path in the repository, its reference file) for each reference file: the solution
    file of the same name, else the one left with the same extension, else a new file of
    the reference's name beside the solution files (Java's helper classes). A solution file
    without a reference (Rust's Cargo.toml, a header-only C++ reference's .cpp) stays."""
    solutions = list(files["solution"])
    found: dict[str, str] = {}
    for example in files["example"]:
        named = [s for s in solutions if Path(s).name == Path(example).name]
        if named:
            found[example] = named[0]
            solutions.remove(named[0])
    for example in (e for e in files["example"] if e not in found):
        same = [s for s in solutions if Path(s).suffix == Path(example).suffix]
        if len(same) == 1:
            found[example] = same[0]
            solutions.remove(same[0])
        else:
            beside = next(
                (s for s in files["solution"] if Path(s).suffix == Path(example).suffix), files["solution"][0]
            )
            found[example] = str(Path(beside).parent / Path(example).name)
    return [(solution, example) for example, solution in found.items()]


def offline_manifest(text: str) -> str:
    """A Cargo manifest whose dependencies take any version: the image carries one version
    of each crate (Debian's), where a reference may name an older one."""
    out, deps = [], False
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("["):
            deps = line.strip().strip("[]").endswith("dependencies")
        elif deps:
            line = re.sub(r'^(\s*[\w-]+\s*=\s*)"[^"]*"', r'\1"*"', line)
            line = re.sub(r'(\bversion\s*=\s*)"[^"]*"', r'\1"*"', line)
        out.append(line)
    return "".join(out)


def reference(folder: Path, files: dict) -> str:
    """The reference as a patch to the stub: the example files in the solution's places,
    and for Rust the example's manifest (.meta/Cargo-example.toml), made offline."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "a", Path(tmp) / "b"
        manifest = folder / ".meta" / "Cargo-example.toml"
        found = pairs(files) + ([("Cargo.toml", str(manifest.relative_to(folder)))] if manifest.exists() else [])
        for solution, example in found:
            (a / solution).parent.mkdir(parents=True, exist_ok=True)
            (b / solution).parent.mkdir(parents=True, exist_ok=True)
            if (folder / solution).exists():
                shutil.copy(folder / solution, a / solution)
            shutil.copy(folder / example, b / solution)
        if manifest.exists():
            (b / "Cargo.toml").write_text(offline_manifest(manifest.read_text()))
        return tree_patch(a, b)


def load_exercise(lang: str, folder: Path, suite: str) -> Task:
    config = folder / ".meta" / "config.json"
    try:
        files = json.loads(config.read_text())["files"]
    except (ValueError, KeyError) as exc:
        raise BenchmarkError(f"{config}: not an exercise configuration with its files ({exc!r})") from exc
    docs = folder / ".docs"
    statement = "\n\n".join(
        p.read_text().strip() for p in (docs / "instructions.md", docs / "instructions.append.md") if p.exists()
    )
    language = LANGUAGES[lang]
    statement += (
        f"\n\nThe language is {lang}. Write your solution in {', '.join(files['solution'])}. The tests are not shown."
    )
    statement += f" {language.note}" if language.note else ""
    return Task(
        id=f"{lang}/{folder.name}",
        suite=suite,
        split=split_of(f"{lang}/{folder.name}"),
        statement=statement,
        repo=RepoSource(folder, exclude=(".meta", ".docs", *files["test"])),
        test_command=language.command.replace("{exercise}", folder.name),
        fail_to_pass=(),
        pass_to_pass=(),
        reference_patch=reference(folder, files),
        hidden_files={t: language.hidden((folder / t).read_bytes()) for t in files["test"]},
        timeout=language.timeout,
        log_parser=language.log_parser,
        all_must_pass=True,
        image=VARIANTS[language.variant].tag if language.variant else None,
        language=lang,
    )


def load(path: str | Path, name: str | None = None) -> Suite:
    root = Path(path)
    if not root.is_dir():
        raise BenchmarkError(f"no polyglot-benchmark folder at {root}")
    suite, tasks, unknown = name or root.name, [], set()
    for lang, folder in exercise_dirs(root):
        if lang not in LANGUAGES:
            unknown.add(lang)
            continue
        tasks.append(load_exercise(lang, folder, suite))
    if unknown:
        log.warning("polyglot: skipped %s (no test command for that language)", ", ".join(sorted(unknown)))
    if not tasks:
        raise BenchmarkError(f"{root}: no exercises in a known language ({', '.join(LANGUAGES)})")
    return Suite(suite, tuple(tasks))
