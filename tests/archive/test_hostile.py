"""Snapshot content comes from untrusted agents: every unsafe tree is refused by name."""

from __future__ import annotations

import os
import socket
import stat

import pytest

from archive import Archive, CorruptBlobError, HostileSnapshotError, SnapshotLimits, SnapshotTooLargeError
from tests.helpers import write_tree


def base(tmp_path):
    return write_tree(tmp_path / "src", {"ok.py": "x = 1\n", "sub/inner.py": "y = 2\n"})


@pytest.mark.parametrize(
    ("link", "target"),
    [
        ("abs_link", "/etc/passwd"),
        ("up_link", "../outside"),
        ("sub/up_two", "../../outside"),
        ("sub/sneaky", "../sub/../../outside"),
    ],
)
def test_symlink_pointing_outside_is_refused(archive: Archive, tmp_path, link, target):
    src = base(tmp_path)
    os.symlink(target, src / link)
    with pytest.raises(HostileSnapshotError) as err:
        archive.add_snapshot(src)
    assert err.value.path == link
    assert link in str(err.value)


def test_symlink_escape_through_another_symlink_is_refused(archive: Archive, tmp_path):
    # 'root_alias' points at the tree's root (inside); 'esc' = root_alias/.. looks like '.'
    # lexically but the kernel resolves it to the root's parent.
    src = base(tmp_path)
    os.symlink(".", src / "root_alias")
    os.symlink("root_alias/..", src / "esc")
    with pytest.raises(HostileSnapshotError, match="outside the tree") as err:
        archive.add_snapshot(src)
    assert err.value.path == "esc"


def test_symlink_loop_is_refused(archive: Archive, tmp_path):
    src = base(tmp_path)
    os.symlink("b", src / "a")
    os.symlink("a", src / "b")
    with pytest.raises(HostileSnapshotError, match="loop"):
        archive.add_snapshot(src)


def test_symlinks_inside_the_tree_are_kept(archive: Archive, tmp_path):
    src = base(tmp_path)
    os.symlink("sub/inner.py", src / "ok_link")
    os.symlink("../ok.py", src / "sub" / "up_but_inside")
    os.symlink("missing_but_inside", src / "dangling")
    snap = archive.add_snapshot(src)
    out = archive.materialize(snap, tmp_path / "out")
    assert os.readlink(out / "sub" / "up_but_inside") == "../ok.py"
    assert (out / "ok_link").read_text() == "y = 2\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a device needs root")
def test_device_file_is_refused(archive: Archive, tmp_path):
    src = base(tmp_path)
    os.mknod(src / "sub" / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    with pytest.raises(HostileSnapshotError, match="not a regular file") as err:
        archive.add_snapshot(src)
    assert err.value.path == "sub/null"


def test_fifo_and_socket_are_refused(archive: Archive, tmp_path):
    src = base(tmp_path)
    os.mkfifo(src / "pipe")
    with pytest.raises(HostileSnapshotError, match="not a regular file") as err:
        archive.add_snapshot(src)
    assert err.value.path == "pipe"
    os.unlink(src / "pipe")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(src / "sock"))
    try:
        with pytest.raises(HostileSnapshotError, match="not a regular file"):
            archive.add_snapshot(src)
    finally:
        sock.close()


def test_setuid_file_is_refused(archive: Archive, tmp_path):
    src = base(tmp_path)
    os.chmod(src / "ok.py", 0o4755)
    with pytest.raises(HostileSnapshotError, match="setuid") as err:
        archive.add_snapshot(src)
    assert err.value.path == "ok.py"


def test_non_utf8_name_is_refused(archive: Archive, tmp_path):
    src = base(tmp_path)
    with open(os.path.join(os.fsencode(src), b"bad\xffname"), "wb") as fh:
        fh.write(b"x")
    with pytest.raises(HostileSnapshotError, match="not UTF-8"):
        archive.add_snapshot(src)


def test_control_character_in_name_is_refused(archive: Archive, tmp_path):
    src = base(tmp_path)
    (src / "evil\x1b[31mname").write_text("x")
    with pytest.raises(HostileSnapshotError, match="control character"):
        archive.add_snapshot(src)


@pytest.mark.parametrize(
    ("limits", "match"),
    [
        (SnapshotLimits(max_files=2), "entries"),
        (SnapshotLimits(max_file_bytes=100), "single-file limit"),
        (SnapshotLimits(max_total_bytes=150), "over 150 bytes"),
    ],
)
def test_limits_are_enforced(tmp_path, limits, match):
    src = write_tree(tmp_path / "src", {"a.txt": "a" * 80, "b.txt": "b" * 80, "c/big.bin": b"\0" * 101})
    with Archive(tmp_path / "a.db", limits=limits) as ar:
        with pytest.raises(SnapshotTooLargeError, match=match):
            ar.add_snapshot(src)
        assert ar.stats().blobs == 0
        assert ar.stats().snapshots == 0


def test_oversized_file_error_names_it(tmp_path):
    src = write_tree(tmp_path / "src", {"small.txt": "x", "deep/huge.bin": b"\0" * 5000})
    with (
        Archive(tmp_path / "a.db", limits=SnapshotLimits(max_file_bytes=4096)) as ar,
        pytest.raises(SnapshotTooLargeError) as err,
    ):
        ar.add_snapshot(src)
    assert err.value.path == "deep/huge.bin"


def _tamper_path(archive: Archive, old: str, new: str) -> None:
    with archive.atomic():
        archive.db.execute("UPDATE paths SET path = ? WHERE path = ?", [new, old])


@pytest.mark.parametrize("evil", ["/tmp/owned", "../owned", "sub/../../owned", "./x", "a//b"])
def test_materialize_refuses_tampered_manifest_paths(archive: Archive, tmp_path, evil):
    snap = archive.add_snapshot(base(tmp_path))
    _tamper_path(archive, "ok.py", evil)
    with pytest.raises(HostileSnapshotError) as err:
        archive.materialize(snap, tmp_path / "out" / "dest")
    assert err.value.path == evil
    assert not (tmp_path / "out" / "dest").exists()
    assert not (tmp_path / "owned").exists()
    assert not (tmp_path / "out" / "owned").exists()


def test_materialize_refuses_tampered_symlink_target(archive: Archive, tmp_path):
    src = base(tmp_path)
    os.symlink("ok.py", src / "link")
    snap = archive.add_snapshot(src)
    # Point the link's manifest row at a blob whose content is an escaping target.
    evil = archive.add_snapshot(write_tree(tmp_path / "evil", {"t": "../../etc/passwd"}))
    evil_blob = next(e.blob for e in archive.manifest(evil) if e.path == "t")
    with archive.atomic():
        archive.db.execute(
            """UPDATE snapshot_files SET blob_id = (SELECT id FROM blobs WHERE sha256 = ?)
               WHERE path_id = (SELECT id FROM paths WHERE path = 'link')""",
            [evil_blob],
        )
    with pytest.raises(HostileSnapshotError, match="outside the tree"):
        archive.materialize(snap, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_materialize_refuses_file_below_a_symlink(archive: Archive, tmp_path):
    # A manifest row below a symlink would make the writer follow the link.
    src = base(tmp_path)
    os.symlink("sub", src / "alias")
    snap = archive.add_snapshot(src)
    _tamper_path(archive, "sub/inner.py", "alias/inner.py")
    with pytest.raises(HostileSnapshotError, match="not a directory"):
        archive.materialize(snap, tmp_path / "out")


def test_corrupt_blob_is_detected_not_returned(archive: Archive, tmp_path):
    snap = archive.add_snapshot(base(tmp_path))
    entry = next(e for e in archive.manifest(snap) if e.path == "ok.py")
    with archive.atomic():
        archive.db.execute("UPDATE blobs SET data = zeroblob(length(data)) WHERE sha256 = ?", [entry.blob])
    with pytest.raises(CorruptBlobError):
        archive.blob(entry.blob)
    with pytest.raises(CorruptBlobError):
        archive.materialize(snap, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_blob_with_valid_zlib_but_wrong_content_is_detected(archive: Archive, tmp_path):
    import zlib

    snap = archive.add_snapshot(base(tmp_path))
    entry = next(e for e in archive.manifest(snap) if e.path == "ok.py")
    with archive.atomic():
        archive.db.execute("UPDATE blobs SET data = ? WHERE sha256 = ?", [zlib.compress(b"x = 2\n"), entry.blob])
    with pytest.raises(CorruptBlobError, match="does not match"):
        archive.blob(entry.blob)


@pytest.mark.parametrize("blob", [None, "0" * 64])
def test_a_tree_sent_as_a_value_with_a_symlink_of_no_or_missing_content_is_refused(archive: Archive, blob):
    """A worker on another machine sends its tree as a value: a symlink entry that names no
    content, or content the tree lacks, is refused by name (it was a KeyError before)."""
    from archive.records import ManifestEntry
    from archive.snapshots import ScannedTree

    tree = ScannedTree([ManifestEntry("link", stat.S_IFLNK | 0o777, blob, 4)], {}, {})
    with pytest.raises(HostileSnapshotError, match="content missing from the tree") as err:
        archive.add_child(None, tree)
    assert err.value.path == "link"
