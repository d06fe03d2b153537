"""File copies across the sandbox boundary that never follow a symlink the sandbox made.

Every path inside a writable area is walked one component at a time with O_NOFOLLOW,
relative to an open directory, so a link planted (or swapped in) by sandboxed code
cannot redirect a read or a write to a host file."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from .errors import SandboxError

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
_WRITE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC


def split(rel: str) -> list[str]:
    parts = [p for p in PurePosixPath(rel).parts if p not in ("/", ".")]
    if ".." in parts:
        raise SandboxError(f"'..' is not allowed in {rel!r}")
    return parts


@contextlib.contextmanager
def open_dir(root: Path, parts: list[str], create: bool = False, owner: tuple[int, int] | None = None) -> Iterator[int]:
    """Yield an fd for root/parts, refusing any symlink on the way."""
    fd = os.open(root, _DIR)
    try:
        for part in parts:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
                    if owner:
                        os.chown(part, *owner, dir_fd=fd, follow_symlinks=False)
            try:
                nxt = os.open(part, _DIR, dir_fd=fd)
            except OSError as exc:
                raise SandboxError(f"{part!r} is not a directory (or is a symlink): {exc.strerror}") from exc
            os.close(fd)
            fd = nxt
        yield fd
    finally:
        os.close(fd)


def read_copied(path: Path, limit: int, tail: bool = False) -> str:
    """Text of a file the sandbox wrote, as copied out: at most `limit` bytes (the last ones
    with `tail`). Empty when it is missing or anything but a regular file: `copy_out` keeps a
    planted symlink as a symlink, and reading through it would fetch a host file."""
    try:
        fd = os.open(path, _READ)
    except OSError:  # missing, or a symlink (ELOOP under O_NOFOLLOW)
        return ""
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return ""
        if tail and st.st_size > limit:
            os.lseek(fd, st.st_size - limit, os.SEEK_SET)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(limit).decode("utf-8", "replace")
    finally:
        os.close(fd)


def copy_out(src_dir_fd: int, name: str, dest: Path) -> None:
    """Copy entry `name` of the open directory to host path `dest` (which must not exist).
    Symlinks are copied as symlinks, never followed; devices, FIFOs and sockets are skipped."""
    st = os.stat(name, dir_fd=src_dir_fd, follow_symlinks=False)
    if stat.S_ISLNK(st.st_mode):
        os.symlink(os.readlink(name, dir_fd=src_dir_fd), dest)
    elif stat.S_ISREG(st.st_mode):
        fd = os.open(name, _READ, dir_fd=src_dir_fd)
        try:
            with os.fdopen(fd, "rb", closefd=False) as src, open(dest, "xb") as out:
                while chunk := src.read(1 << 20):
                    out.write(chunk)
        finally:
            os.close(fd)
        os.chmod(dest, stat.S_IMODE(st.st_mode) & 0o777)
    elif stat.S_ISDIR(st.st_mode):
        os.mkdir(dest, 0o700)
        fd = os.open(name, _DIR, dir_fd=src_dir_fd)
        try:
            for entry in sorted(os.listdir(fd)):
                copy_out(fd, entry, dest / entry)
        finally:
            os.close(fd)
        os.chmod(dest, stat.S_IMODE(st.st_mode) & 0o777 | 0o700)


def copy_in(src: Path, dest_dir_fd: int, name: str, owner: tuple[int, int] | None) -> None:
    """Copy host path `src` to entry `name` of the open directory, replacing what is there
    (a symlink there is replaced, not followed). Host symlinks are copied as symlinks."""
    st = os.lstat(src)
    _remove(dest_dir_fd, name)
    if stat.S_ISLNK(st.st_mode):
        os.symlink(os.readlink(src), name, dir_fd=dest_dir_fd)
    elif stat.S_ISDIR(st.st_mode):
        os.mkdir(name, 0o700, dir_fd=dest_dir_fd)
        fd = os.open(name, _DIR, dir_fd=dest_dir_fd)
        try:
            for entry in sorted(os.listdir(src)):
                copy_in(src / entry, fd, entry, owner)
            os.fchmod(fd, stat.S_IMODE(st.st_mode))
        finally:
            os.close(fd)
    elif stat.S_ISREG(st.st_mode):
        fd = os.open(name, _WRITE, 0o600, dir_fd=dest_dir_fd)
        try:
            with open(src, "rb") as fh, os.fdopen(fd, "wb", closefd=False) as out:
                while chunk := fh.read(1 << 20):
                    out.write(chunk)
            os.fchmod(fd, stat.S_IMODE(st.st_mode) & 0o777)
        finally:
            os.close(fd)
    else:
        raise SandboxError(f"cannot copy {src}: not a file, directory or symlink")
    if owner:
        os.chown(name, *owner, dir_fd=dest_dir_fd, follow_symlinks=False)


def _remove(dir_fd: int, name: str) -> None:
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(st.st_mode):
        os.unlink(name, dir_fd=dir_fd)
        return
    fd = os.open(name, _DIR, dir_fd=dir_fd)
    try:
        for entry in os.listdir(fd):
            _remove(fd, entry)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=dir_fd)
