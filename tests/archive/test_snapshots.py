"""Snapshots round-trip exactly and are deduplicated by content."""

from __future__ import annotations

import os
import stat

import pytest

from archive import Archive, HostileSnapshotError
from tests.helpers import tree_listing, write_tree


def sample_tree(root):
    write_tree(
        root,
        {
            "pkg/__init__.py": "",
            "pkg/main.py": "print('hello')\n",
            "pkg/tool.sh": "#!/bin/sh\necho hi\n",
            "data/blob.bin": bytes(range(256)) * 7 + b"\0\xff\x00",
            "data/no_newline.txt": "last line without newline",
            "empty_dir": None,
            "deep/a/b/c/empty": None,
            "readonly_dir/inside.txt": "x\n",
            "odd name with spaces/ünïcödé.txt": "utf-8 names\n",
        },
        modes={"pkg/tool.sh": 0o755, "pkg/main.py": 0o600, "data/blob.bin": 0o444, "readonly_dir": 0o555},
    )
    os.symlink("pkg/main.py", root / "link_to_main")
    os.symlink("../pkg", root / "data" / "link_to_pkg_dir")
    return root


def test_round_trip_is_exact(archive: Archive, tmp_path):
    src = sample_tree(tmp_path / "src")
    snap = archive.add_snapshot(src)
    out = archive.materialize(snap, tmp_path / "out")
    assert tree_listing(out) == tree_listing(src)
    assert stat.S_IMODE((out / "readonly_dir").stat().st_mode) == 0o555
    assert stat.S_IMODE((out / "pkg/tool.sh").stat().st_mode) == 0o755
    assert (out / "deep/a/b/c/empty").is_dir()
    assert not any((out / "deep/a/b/c/empty").iterdir())
    info = archive.snapshot_info(snap)
    assert info.n_files == len(tree_listing(src))


def test_materialize_into_empty_existing_dir(archive: Archive, tmp_path):
    src = sample_tree(tmp_path / "src")
    snap = archive.add_snapshot(src)
    (tmp_path / "empty").mkdir()
    archive.materialize(snap, tmp_path / "empty")
    assert tree_listing(tmp_path / "empty") == tree_listing(src)


def test_materialize_refuses_non_empty_destination(archive: Archive, tmp_path):
    snap = archive.add_snapshot(sample_tree(tmp_path / "src"))
    dest = write_tree(tmp_path / "dest", {"keep.txt": "precious"})
    with pytest.raises(HostileSnapshotError, match="not an empty directory"):
        archive.materialize(snap, dest)
    assert (dest / "keep.txt").read_text() == "precious"


def test_same_tree_same_id(archive: Archive, tmp_path):
    a = sample_tree(tmp_path / "a")
    b = sample_tree(tmp_path / "b")
    assert archive.add_snapshot(a) == archive.add_snapshot(b) == archive.add_snapshot(a)
    assert archive.stats().snapshots == 1


def test_one_changed_file_adds_one_blob(archive: Archive, tmp_path):
    src = sample_tree(tmp_path / "src")
    first = archive.add_snapshot(src)
    before = archive.stats()
    (src / "pkg/main.py").write_text("print('changed')\n")
    second = archive.add_snapshot(src)
    after = archive.stats()
    assert second != first
    assert after.blobs == before.blobs + 1
    assert after.snapshots == before.snapshots + 1


def test_mode_change_alone_changes_id(archive: Archive, tmp_path):
    src = sample_tree(tmp_path / "src")
    first = archive.add_snapshot(src)
    blobs_before = archive.stats().blobs
    os.chmod(src / "pkg/main.py", 0o644)
    assert archive.add_snapshot(src) != first
    assert archive.stats().blobs == blobs_before


def test_empty_dir_is_part_of_identity(archive: Archive, tmp_path):
    src = sample_tree(tmp_path / "src")
    first = archive.add_snapshot(src)
    (src / "another_empty").mkdir()
    assert archive.add_snapshot(src) != first


def test_empty_tree_round_trips(archive: Archive, tmp_path):
    (tmp_path / "void").mkdir()
    snap = archive.add_snapshot(tmp_path / "void")
    out = archive.materialize(snap, tmp_path / "out")
    assert list(out.iterdir()) == []


def test_manifest_lists_every_entry(archive: Archive, tmp_path):
    src = sample_tree(tmp_path / "src")
    snap = archive.add_snapshot(src)
    paths = {e.path for e in archive.manifest(snap)}
    assert paths == set(tree_listing(src))
    by_path = {e.path: e for e in archive.manifest(snap)}
    assert stat.S_ISLNK(by_path["link_to_main"].mode)
    assert archive.blob(by_path["link_to_main"].blob) == b"pkg/main.py"
    assert by_path["empty_dir"].blob is None
