"""diff(a, b) is a unified diff that turns a into b with standard tools."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from archive import Archive
from tests.helpers import tree_listing, write_tree


def test_diff_applies_with_git(archive: Archive, tmp_path):
    if shutil.which("git") is None:
        pytest.fail("git is needed for this test")
    a_dir = write_tree(
        tmp_path / "a",
        {
            "keep.py": "same\n",
            "edit.py": "".join(f"line {i}\n" for i in range(30)),
            "gone.py": "bye\n",
            "tail.txt": "no newline at the end",
            "run.sh": "#!/bin/sh\n",
        },
    )
    b_dir = write_tree(
        tmp_path / "b",
        {
            "keep.py": "same\n",
            "edit.py": "".join(f"line {i}\n" if i != 15 else "changed\n" for i in range(30)) + "added\n",
            "new/file.py": "hello\n",
            "tail.txt": "no newline at the end, still",
            "run.sh": "#!/bin/sh\n",
        },
        modes={"run.sh": 0o755},
    )
    a, b = archive.add_snapshot(a_dir), archive.add_snapshot(b_dir)
    patch = archive.diff(a, b)
    assert "keep.py" not in patch
    assert "\\ No newline at end of file" in patch
    assert "old mode 100644\nnew mode 100755" in patch
    work = archive.materialize(a, tmp_path / "work")
    subprocess.run(["git", "apply", "--whitespace=nowarn", "-"], input=patch.encode(), cwd=work, check=True)
    assert tree_listing(work) == tree_listing(b_dir)


def test_diff_of_identical_snapshots_is_empty(archive: Archive, tmp_path):
    a = archive.add_snapshot(write_tree(tmp_path / "a", {"x": "1\n"}))
    assert archive.diff(a, a) == ""


def test_binary_change_is_named(archive: Archive, tmp_path):
    a = archive.add_snapshot(write_tree(tmp_path / "a", {"img.bin": b"\x00\x01"}))
    b = archive.add_snapshot(write_tree(tmp_path / "b", {"img.bin": b"\x00\x02"}))
    assert "Binary files a/img.bin and b/img.bin differ" in archive.diff(a, b)
