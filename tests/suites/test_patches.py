"""Patch handling: touched files, stripping test hunks, diffs between trees."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from archive import SnapshotLimits, SnapshotTooLargeError
from dgm.suites.patches import files_in_patch, is_test_path, strip_tests, tree_patch
from tests.helpers import tree_listing, write_tree

PATCH = """diff --git a/pkg/mod.py b/pkg/mod.py
--- a/pkg/mod.py
+++ b/pkg/mod.py
@@ -1 +1 @@
-x = 1
+x = 2
diff --git a/tests/test_mod.py b/tests/test_mod.py
--- a/tests/test_mod.py
+++ b/tests/test_mod.py
@@ -1 +1 @@
-assert False
+assert True
diff --git a/gone.py b/gone.py
deleted file mode 100644
--- a/gone.py
+++ /dev/null
@@ -1 +0,0 @@
-bye
"""


def test_files_in_patch_and_test_paths():
    assert files_in_patch(PATCH) == ["pkg/mod.py", "tests/test_mod.py", "gone.py"]
    for path in (
        "tests/test_x.py",
        "pkg/tests/helpers.py",
        "test_top.py",
        "conftest.py",
        "src/x_test.go",
        "web/app.spec.js",
    ):
        assert is_test_path(path), path
    for path in ("pkg/mod.py", "contest.py", "testing_utils.py", "latest.py"):
        assert not is_test_path(path), path
    assert is_test_path("checks/verify.py", extra={"checks/verify.py"})


def test_strip_tests_removes_and_names_test_hunks():
    kept, stripped = strip_tests(PATCH)
    assert stripped == ["tests/test_mod.py"]
    assert files_in_patch(kept) == ["pkg/mod.py", "gone.py"]
    assert "assert True" not in kept


def test_tree_patch_round_trips_through_git_apply(tmp_path):
    base = write_tree(tmp_path / "base", {"a.py": "a = 1\n", "b/c.py": "c\n", "old.txt": "x\n", ".git/HEAD": "ref"})
    new = write_tree(
        tmp_path / "new",
        {"a.py": "a = 2\n", "b/c.py": "c\n", "d.py": "new\n", ".git/HEAD": "other", "__pycache__/x.pyc": b"\0"},
    )
    patch = tree_patch(base, new)
    assert ".git" not in patch
    assert "__pycache__" not in patch
    work = tmp_path / "work"
    subprocess.run(["cp", "-r", str(base), str(work)], check=True)
    subprocess.run(["git", "apply", "-"], input=patch.encode(), cwd=work, check=True)
    expected = {k: v for k, v in tree_listing(new).items() if not k.startswith(("__pycache__", ".git"))}
    assert {k: v for k, v in tree_listing(work).items() if not k.startswith(".git")} == expected


def test_swebench_predictions_jsonl(tmp_path):
    from dgm.suites import predictions

    path = tmp_path / "preds.jsonl"
    n = predictions.write(path, "dgm-node-7", [("acme__calc-1", PATCH), ("acme__calc-2", "")])
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert n == 2
    assert rows[0] == {
        "instance_id": "acme__calc-1",
        "model_name_or_path": "dgm-node-7",
        "model_patch": PATCH,
    }
    assert rows[1]["model_patch"] == ""


def test_harness_files_are_stripped_too():
    from dgm.suites.patches import is_harness_path

    for path in (
        "pytest.ini",
        "tox.ini",
        "pkg/conftest.py",
        "pytest.py",
        "_pytest/terminal.py",
        "sitecustomize.py",
        "evil.pth",
        ".pytest.ini",
        "pytest.toml",
        ".pytest.toml",
    ):
        assert is_harness_path(path), path
    for path in ("pkg/pytest_helpers.py", "setup.py", "src/app.py"):
        assert not is_harness_path(path), path
    fake = (
        "diff --git a/pytest.py b/pytest.py\nnew file mode 100644\n--- /dev/null\n+++ b/pytest.py\n@@ -0,0 +1 @@\n+x\n"
    )
    assert strip_tests(PATCH + fake)[1] == ["tests/test_mod.py", "pytest.py"]


def test_new_top_level_modules_named_like_the_standard_library_are_stripped():
    shadow = "diff --git a/difflib.py b/difflib.py\nnew file mode 100644\n--- /dev/null\n+++ b/difflib.py\n"
    shadow += "@@ -0,0 +1 @@\n+x\n"
    package = shadow.replace("difflib.py", "json/__init__.py")
    own = shadow.replace("difflib.py", "textkit/difflib.py")  # inside the project's package: fine
    assert strip_tests(shadow)[1] == ["difflib.py"]
    assert strip_tests(package)[1] == ["json/__init__.py"]
    assert strip_tests(own)[1] == []


def test_tree_patch_bounds_what_the_agent_adds_not_the_size_of_the_base(tmp_path):
    room = SnapshotLimits(max_files=5, max_total_bytes=1000)
    base, new = tmp_path / "base", tmp_path / "new"
    base.mkdir()
    for i in range(20):  # more than the room an agent gets: a large built repository
        (base / f"f{i}.txt").write_text("x" * 100)
    shutil.copytree(base, new)
    (new / "f0.txt").write_text("changed\n")
    assert "+changed" in tree_patch(base, new, room)
    for i in range(6):
        (new / f"extra{i}.txt").write_text("y")
    with pytest.raises(SnapshotTooLargeError):
        tree_patch(base, new, room)
