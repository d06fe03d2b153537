"""Aider's polyglot-benchmark exercise folders: LANG/exercises/practice/NAME/ with
.docs/instructions*.md (the statement), .meta/config.json (solution, test and example
files), stub solution files (the base), test files (hidden) and .meta/example.* (the
reference). A task is resolved when every test of the exercise passes.

Python runs in the sandbox image; other languages need their toolchain there and are
reported as unsupported until the image carries it."""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import tempfile
from pathlib import Path

from ..patches import tree_patch
from ..suite import Suite
from ..task import BenchmarkError, RepoSource, Task

log = logging.getLogger(__name__)
COMMANDS = {"python": "python3 -m pytest -rfEsxXp --show-capture=no -q -p no:cacheprovider {tests}"}


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


def reference(folder: Path, files: dict) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "a", Path(tmp) / "b"
        for solution, example in zip(files["solution"], files["example"], strict=True):
            (a / solution).parent.mkdir(parents=True, exist_ok=True)
            (b / solution).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(folder / solution, a / solution)
            shutil.copy(folder / example, b / solution)
        return tree_patch(a, b)


def load_exercise(lang: str, folder: Path, suite: str) -> Task:
    files = json.loads((folder / ".meta" / "config.json").read_text())["files"]
    docs = folder / ".docs"
    statement = "\n\n".join(
        p.read_text().strip() for p in (docs / "instructions.md", docs / "instructions.append.md") if p.exists()
    )
    statement += f"\n\nWrite your solution in {', '.join(files['solution'])}. The tests are not shown."
    return Task(
        id=f"{lang}/{folder.name}",
        suite=suite,
        split=split_of(f"{lang}/{folder.name}"),
        statement=statement,
        repo=RepoSource(folder, exclude=(".meta", ".docs", *files["test"])),
        test_command=COMMANDS[lang],
        fail_to_pass=(),
        pass_to_pass=(),
        reference_patch=reference(folder, files),
        hidden_files={t: (folder / t).read_bytes() for t in files["test"]},
        timeout=120,
        all_must_pass=True,
    )


def load(path: str | Path, name: str | None = None) -> Suite:
    root = Path(path)
    if not root.is_dir():
        raise BenchmarkError(f"no polyglot-benchmark folder at {root}")
    suite, tasks, unsupported = name or root.name, [], set()
    for lang, folder in exercise_dirs(root):
        if lang not in COMMANDS:
            unsupported.add(lang)
            continue
        tasks.append(load_exercise(lang, folder, suite))
    if unsupported:
        log.warning("polyglot: skipped %s (no toolchain in the sandbox image)", ", ".join(sorted(unsupported)))
    if not tasks:
        raise BenchmarkError(f"{root}: no exercises in a supported language ({', '.join(COMMANDS)})")
    return Suite(suite, tuple(tasks))
