"""Snapshot manifests: the safety rules every snapshot obeys, and its content digest.

The same `validate()` runs when a tree is stored and again before one is written out,
so a manifest tampered with inside the database is refused as well."""

from __future__ import annotations

import hashlib
import stat
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import HostileSnapshotError, SnapshotTooLargeError
from .records import ManifestEntry

MAX_SYMLINK_HOPS = 40
ALLOWED_PERMISSION_BITS = 0o777


@dataclass(frozen=True)
class SnapshotLimits:
    """Upper bounds on a snapshot tree. Entries count files, directories and symlinks."""

    max_files: int = 10_000
    max_total_bytes: int = 100 * 2**20
    max_file_bytes: int = 20 * 2**20


def check_path(path: str) -> None:
    """A manifest path: relative, '/'-separated, no '.', '..' or empty parts, printable."""
    if not path:
        raise HostileSnapshotError(path, "empty path")
    if path.startswith("/"):
        raise HostileSnapshotError(path, "absolute path")
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in path):
        raise HostileSnapshotError(path, "control character in path")
    if "\\" in path:
        raise HostileSnapshotError(path, "backslash in path")
    for part in path.split("/"):
        if part in ("", ".", ".."):
            raise HostileSnapshotError(path, f"path component {part!r} is not allowed")


def check_mode(path: str, mode: int) -> None:
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
        raise HostileSnapshotError(path, f"not a regular file, directory or symlink (mode {mode:o})")
    if stat.S_IMODE(mode) & ~ALLOWED_PERMISSION_BITS:
        raise HostileSnapshotError(path, f"setuid/setgid/sticky bits are not allowed (mode {mode:o})")


def symlink_escapes(path: str, links: Mapping[str, str]) -> str | None:
    """Resolve symlink `path` inside the tree the way the kernel would, following the
    tree's other symlinks. Returns why it is unsafe (escapes the root, loops), or None."""
    stack = path.split("/")[:-1]
    pending = deque(links[path].split("/"))
    if links[path].startswith("/"):
        return "symlink to an absolute path"
    hops = 1
    while pending:
        part = pending.popleft()
        if part in ("", "."):
            continue
        if part == "..":
            if not stack:
                return "symlink points outside the tree"
            stack.pop()
            continue
        stack.append(part)
        target = links.get("/".join(stack))
        if target is None:
            continue
        hops += 1
        if hops > MAX_SYMLINK_HOPS:
            return "symlink loop"
        if target.startswith("/"):
            return "symlink chain reaches an absolute path"
        stack.pop()
        pending.extendleft(reversed(target.split("/")))
    return None


def validate(entries: Sequence[ManifestEntry], link_targets: Mapping[str, str], limits: SnapshotLimits) -> None:
    """Raise HostileSnapshotError (or SnapshotTooLargeError) naming the first bad path."""
    if len(entries) > limits.max_files:
        raise SnapshotTooLargeError(".", f"{len(entries)} entries, limit {limits.max_files}")
    kinds: dict[str, int] = {}
    total = 0
    for entry in sorted(entries, key=lambda e: e.path):
        check_path(entry.path)
        check_mode(entry.path, entry.mode)
        if entry.path in kinds:
            raise HostileSnapshotError(entry.path, "duplicate path")
        parent = entry.path.rpartition("/")[0]
        if parent and not stat.S_ISDIR(kinds.get(parent, 0)):
            raise HostileSnapshotError(entry.path, f"parent {parent!r} is not a directory in the tree")
        kinds[entry.path] = entry.mode
        if stat.S_ISDIR(entry.mode) != (entry.blob is None):
            raise HostileSnapshotError(entry.path, "directories have no content; files and symlinks do")
        if entry.size > limits.max_file_bytes:
            raise SnapshotTooLargeError(entry.path, f"{entry.size} bytes, single-file limit {limits.max_file_bytes}")
        total += entry.size
        if total > limits.max_total_bytes:
            raise SnapshotTooLargeError(
                entry.path, f"tree passes the total limit of {limits.max_total_bytes} bytes here"
            )
    for path in sorted(link_targets):
        why = symlink_escapes(path, link_targets)
        if why:
            raise HostileSnapshotError(path, f"{why} (target {link_targets[path]!r})")


def digest(entries: Sequence[ManifestEntry]) -> str:
    """Content address of a tree: equal trees (paths, modes, contents) share it."""
    h = hashlib.sha256()
    for e in sorted(entries, key=lambda e: e.path):
        h.update(f"{e.mode:o}\0{e.blob or ''}\0{e.path}\0".encode())
    return h.hexdigest()
