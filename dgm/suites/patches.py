"""Unified diffs: which files a patch touches, stripping hunks that touch test files, and
the patch between two directory trees."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path, PurePosixPath

_SECTION = re.compile(r"^diff --git ", re.M)
_TARGET = re.compile(r"^\+\+\+ (?:b/)?(\S+)|^diff --git a/(\S+) b/(\S+)", re.M)
TEST_DIRS = {"test", "tests", "testing", "__tests__", "spec"}
# Files that change how the tests run or are judged, rather than the code under test:
# pytest configuration, stand-ins for pytest itself, interpreter start-up hooks, and the
# other languages' runner configuration (jest and babel, cargo build scripts, CMake, go.mod). (The
# grader runs tests under its own configuration whatever a patch does; removing these
# hunks also flags the attempt.)
HARNESS_NAMES = {
    "pytest.ini",
    ".pytest.ini",
    "pytest.toml",
    ".pytest.toml",
    "tox.ini",
    "conftest.py",
    "pytest.py",
    "py.py",
    "sitecustomize.py",
    "usercustomize.py",
    "noxfile.py",
    # the other languages' runners: what to run, how to build it, how to transform it
    "package.json",
    "jest.config.js",
    "jest.config.cjs",
    "jest.config.mjs",
    "jest.config.ts",
    "babel.config.js",
    "babel.config.json",
    ".babelrc",
    "build.rs",
    "CMakeLists.txt",
    "go.mod",
    "go.work",
    "go.work.sum",
}
# Top-level folders that replace the runner or its configuration: stand-ins for pytest, a
# node_modules that node and babel would find before the image's (a babel preset that
# rewrites the tests), cargo configuration (a test runner that is `true`).
HARNESS_DIRS = {"_pytest", "pytest", "pluggy", "node_modules", ".cargo"}


def sections(patch: str) -> list[str]:
    """The per-file sections of a git-style diff (anything before the first is dropped)."""
    starts = [m.start() for m in _SECTION.finditer(patch)]
    if not starts and patch.strip():
        # A plain `diff -u` without git headers: split on ---/+++ pairs.
        starts = [m.start() for m in re.finditer(r"^--- ", patch, re.M)]
    ends = [*starts[1:], len(patch)]
    return [patch[a:b] for a, b in zip(starts, ends[: len(starts)], strict=True)]


def section_path(section: str) -> str:
    match = _TARGET.search(section)
    if not match:
        return ""
    path = match.group(1) or match.group(3)
    if path == "/dev/null":  # a deletion: the old name
        old = re.search(r"^--- (?:a/)?(\S+)", section, re.M)
        path = old.group(1) if old else path
    return path


def files_in_patch(patch: str) -> list[str]:
    return [section_path(s) for s in sections(patch) if section_path(s)]


def is_test_path(path: str, extra: set[str] = frozenset()) -> bool:
    p = PurePosixPath(path)
    name = p.name
    return (
        path in extra
        or bool(TEST_DIRS & set(p.parts[:-1]))
        or name.startswith("test_")
        or name == "conftest.py"
        or re.search(r"(_test|_spec|\.test|\.spec)\.[a-z]+$", name) is not None
    )


def is_harness_path(path: str) -> bool:
    p = PurePosixPath(path)
    return p.name in HARNESS_NAMES or p.suffix == ".pth" or (len(p.parts) > 1 and p.parts[0] in HARNESS_DIRS)


def shadows_stdlib(section: str, path: str) -> bool:
    """A new module at the repository's top level named like a standard-library module
    (the test process would import it in place of the real one)."""
    p = PurePosixPath(path)
    top = p.parts[0] if len(p.parts) > 1 else p.stem if p.suffix == ".py" else ""
    added = re.search(r"^(new file mode|--- /dev/null)", section, re.M) is not None
    return added and top in sys.stdlib_module_names


def strip_tests(patch: str, extra: set[str] = frozenset()) -> tuple[str, list[str]]:
    """The patch without the sections that touch test files or the test harness, and the
    paths removed (which are flagged in the verdict)."""
    kept, stripped = [], []
    for section in sections(patch):
        path = section_path(section)
        if is_test_path(path, extra) or is_harness_path(path) or shadows_stdlib(section, path):
            stripped.append(path)
        else:
            kept.append(section)
    return "".join(kept), stripped


def measure(root: Path, skip: frozenset[str] = frozenset()) -> tuple[int, int, int]:
    """Entries, total bytes and the largest file of a trusted tree (what scan would count)."""
    entries = total = largest = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in skip]
        names = [f for f in files if f not in skip]
        entries += len(dirs) + len(names)
        for name in names:
            size = os.lstat(os.path.join(folder, name)).st_size
            total, largest = total + size, max(largest, size)
    return entries, total, largest


def tree_patch(base: Path, new: Path, room=None) -> str:
    """The git-style patch that turns directory `base` into directory `new` (VCS folders and
    bytecode ignored). `new` is untrusted: it is read with the archive's hostile-input rules,
    its bounds those of `base` (trusted; a task's image may hold a large built repository)
    plus `room` for what an agent may add (default: the archive's snapshot bounds)."""
    from archive import SnapshotLimits, diff, snapshots

    skip = frozenset({".git", "__pycache__", ".pytest_cache"})
    room = room or SnapshotLimits()
    entries, total, largest = measure(base, skip)
    limits = SnapshotLimits(
        max_files=entries + room.max_files,
        max_total_bytes=total + room.max_total_bytes,
        max_file_bytes=max(largest, room.max_file_bytes),
    )
    old_tree, new_tree = snapshots.scan(base, limits, skip), snapshots.scan(new, limits, skip)
    contents = {**old_tree.contents, **new_tree.contents}
    return diff.unified(old_tree.entries, new_tree.entries, contents.__getitem__)
