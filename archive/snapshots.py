"""Snapshots: read a directory tree into the store, and write one back out exactly."""

from __future__ import annotations

import os
import shutil
import stat
import time
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from . import blobs, manifest
from .db import inserted
from .errors import HostileSnapshotError, SnapshotTooLargeError, UnknownRecordError
from .manifest import SnapshotLimits
from .records import ManifestEntry

# O_NONBLOCK: a FIFO swapped in after the scan must not hang the open.
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class ScannedTree:
    entries: list[ManifestEntry]
    contents: dict[str, bytes]  # blob sha256 -> raw content
    link_targets: dict[str, str]  # symlink path -> target

    @property
    def digest(self) -> str:
        return manifest.digest(self.entries)


def scan(root: Path, limits: SnapshotLimits, skip: frozenset[str] = frozenset()) -> ScannedTree:
    """Read the tree under `root` (not following symlinks) and validate it. Entries whose
    name is in `skip` (say, ".git") are left out, with everything below them."""
    root = Path(root)
    if not root.is_dir() or root.is_symlink():
        raise HostileSnapshotError(str(root), "snapshot root must be a real directory")
    entries: list[ManifestEntry] = []
    contents: dict[str, bytes] = {}
    links: dict[str, str] = {}
    total = 0
    todo = [("", root)]
    while todo:
        rel_dir, abs_dir = todo.pop()
        with os.scandir(abs_dir) as it:
            children = sorted(it, key=lambda d: d.name)
        for child in children:
            if child.name in skip:
                continue
            rel = _relpath(rel_dir, child.name)
            if len(entries) >= limits.max_files:
                raise SnapshotTooLargeError(rel, f"more than {limits.max_files} entries")
            st = child.stat(follow_symlinks=False)
            manifest.check_mode(rel, st.st_mode)
            if stat.S_ISDIR(st.st_mode):
                entries.append(ManifestEntry(rel, st.st_mode, None))
                todo.append((rel, Path(child.path)))
                continue
            if stat.S_ISLNK(st.st_mode):
                target = os.readlink(child.path)
                links[rel] = target
                data = target.encode("utf-8", "surrogateescape")
            else:
                data = _read_file(Path(child.path), rel, limits.max_file_bytes)
            total += len(data)
            if total > limits.max_total_bytes:
                raise SnapshotTooLargeError(rel, f"tree is over {limits.max_total_bytes} bytes")
            sha = blobs.sha256(data)
            contents[sha] = data
            entries.append(ManifestEntry(rel, st.st_mode, sha, len(data)))
    manifest.validate(entries, links, limits)
    return ScannedTree(entries, contents, links)


def _relpath(rel_dir: str, name: str) -> str:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        shown = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        raise HostileSnapshotError(f"{rel_dir}/{shown}".lstrip("/"), "file name is not UTF-8") from None
    rel = f"{rel_dir}/{name}" if rel_dir else name
    manifest.check_path(rel)
    return rel


def _read_file(path: Path, rel: str, max_bytes: int) -> bytes:
    fd = os.open(path, _READ_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise HostileSnapshotError(rel, "changed type while being read")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(max_bytes + 1)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise SnapshotTooLargeError(rel, f"file is over the single-file limit of {max_bytes} bytes")
    return data


def store(db: sqlite_utils.Database, tree: ScannedTree) -> str:
    """Write a scanned tree; return its id. Call inside a write transaction."""
    digest = tree.digest
    if db.execute("SELECT 1 FROM snapshots WHERE digest = ?", [digest]).fetchone():
        return digest
    blob_ids = {sha: blobs.put(db, data, sha) for sha, data in tree.contents.items()}
    path_ids = _intern_paths(db, [e.path for e in tree.entries])
    snap_id = inserted(
        db.execute(
            "INSERT INTO snapshots (digest, n_files, total_bytes, created_at) VALUES (?, ?, ?, ?)",
            [digest, len(tree.entries), sum(e.size for e in tree.entries), time.time()],
        )
    )
    db.conn.executemany(
        "INSERT INTO snapshot_files (snapshot_id, path_id, mode, blob_id) VALUES (?, ?, ?, ?)",
        [(snap_id, path_ids[e.path], e.mode, blob_ids[e.blob] if e.blob else None) for e in tree.entries],
    )
    return digest


def _intern_paths(db: sqlite_utils.Database, paths: list[str]) -> dict[str, int]:
    ids: dict[str, int] = {}
    for start in range(0, len(paths), 500):
        chunk = paths[start : start + 500]
        marks = ",".join("?" * len(chunk))
        ids.update(db.execute(f"SELECT path, id FROM paths WHERE path IN ({marks})", chunk).fetchall())
    for path in paths:
        if path not in ids:
            ids[path] = inserted(db.execute("INSERT INTO paths (path) VALUES (?)", [path]))
    return ids


def row_id(db: sqlite_utils.Database, digest: str) -> int:
    row = db.execute("SELECT id FROM snapshots WHERE digest = ?", [digest]).fetchone()
    if row is None:
        raise UnknownRecordError(f"no snapshot {digest}")
    return int(row[0])


def load_entries(db: sqlite_utils.Database, digest: str) -> list[tuple[ManifestEntry, int | None]]:
    """The manifest of a snapshot, each entry with its blob row id."""
    rows = db.execute(
        """SELECT p.path, f.mode, b.sha256, coalesce(b.size, 0), f.blob_id
           FROM snapshot_files f JOIN paths p ON p.id = f.path_id
           LEFT JOIN blobs b ON b.id = f.blob_id
           WHERE f.snapshot_id = ? ORDER BY p.path""",
        [row_id(db, digest)],
    ).fetchall()
    return [(ManifestEntry(path, mode, sha, size), blob_id) for path, mode, sha, size, blob_id in rows]


def materialize(db: sqlite_utils.Database, digest: str, dest: Path, limits: SnapshotLimits) -> None:
    """Write snapshot `digest` to `dest` (which must not exist, or be an empty directory)."""
    rows = load_entries(db, digest)
    content = blobs.get_many(db, [b for _, b in rows if b is not None])
    by_sha = {e.blob: content[b] for e, b in rows if b is not None and e.blob is not None}
    write(Path(dest), [e for e, _ in rows], by_sha, limits)


def write(dest: Path, entries: list[ManifestEntry], content: dict[str, bytes], limits: SnapshotLimits) -> None:
    """Write a tree given as manifest entries and content by sha256 (from the archive, or
    shipped to another machine) to `dest`, validating the manifest first."""
    dest = Path(dest)
    links = {e.path: _content(e, content).decode("utf-8", "surrogateescape") for e in entries if stat.S_ISLNK(e.mode)}
    manifest.validate(entries, links, limits)
    if dest.is_symlink() or (dest.exists() and (not dest.is_dir() or any(dest.iterdir()))):
        raise HostileSnapshotError(str(dest), "destination exists and is not an empty directory")
    created = not dest.exists()
    dest.mkdir(parents=True, exist_ok=True)
    try:
        _write_tree(dest, sorted(entries, key=lambda e: e.path), content)
    except BaseException:
        if created:
            shutil.rmtree(dest, ignore_errors=True)
        raise


def open_up(tree: Path) -> None:
    """Let sandbox uids read a materialized tree (the archive keeps modes; the sandbox runs
    as another user). Symlinks are left alone: chmod would follow them."""
    for path in [tree, *tree.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | (0o755 if path.is_dir() else 0o644))


def verify(tree: ScannedTree, limits: SnapshotLimits) -> ScannedTree:
    """Check a tree that arrived as a value (say, from a worker on another machine) as
    strictly as one scanned here: every content matches its hash and size, the manifest
    passes the same rules. Returns it with its link targets taken from the content."""
    for entry in tree.entries:
        if entry.blob is None:
            continue
        data = tree.contents.get(entry.blob)
        if data is None:
            raise HostileSnapshotError(entry.path, "content missing from the tree")
        if len(data) != entry.size or blobs.sha256(data) != entry.blob:
            raise HostileSnapshotError(entry.path, "content does not match its hash or size")
    links = {
        e.path: _content(e, tree.contents).decode("utf-8", "surrogateescape")
        for e in tree.entries
        if stat.S_ISLNK(e.mode)
    }
    manifest.validate(tree.entries, links, limits)
    used = {e.blob for e in tree.entries if e.blob}
    return ScannedTree(list(tree.entries), {k: v for k, v in tree.contents.items() if k in used}, links)


def _content(entry: ManifestEntry, contents: dict[str, bytes]) -> bytes:
    """A file's or symlink's content; a hostile tree may name none, or one it lacks."""
    if entry.blob is None or entry.blob not in contents:
        raise HostileSnapshotError(entry.path, "content missing from the tree")
    return contents[entry.blob]


def _write_tree(dest: Path, entries: list[ManifestEntry], content: dict[str, bytes]) -> None:
    dirs: list[tuple[Path, int]] = []
    for entry in entries:  # sorted by path: every parent comes before its children
        target = dest / entry.path
        if stat.S_ISDIR(entry.mode):
            target.mkdir(mode=0o700)
            dirs.append((target, entry.mode))
        elif stat.S_ISREG(entry.mode):
            fd = os.open(target, _WRITE_FLAGS, 0o600)
            try:
                with os.fdopen(fd, "wb", closefd=False) as fh:
                    fh.write(_content(entry, content))
                os.fchmod(fd, stat.S_IMODE(entry.mode))
            finally:
                os.close(fd)
    # Symlinks last, so no write above can pass through one.
    for entry in entries:
        if stat.S_ISLNK(entry.mode):
            os.symlink(_content(entry, content).decode("utf-8", "surrogateescape"), dest / entry.path)
    for path, mode in reversed(dirs):  # deepest first, so read-only dirs stay writable until set
        os.chmod(path, stat.S_IMODE(mode))
