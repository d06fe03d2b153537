"""Git-style unified diff between two snapshots (applies with `git apply` / `patch -p1`)."""

from __future__ import annotations

import difflib
import stat
from collections.abc import Callable, Iterator

from .records import ManifestEntry

Reader = Callable[[str], bytes]  # blob sha256 -> content


def unified(old: list[ManifestEntry], new: list[ManifestEntry], read: Reader, context: int = 3) -> str:
    """Diff of the files and symlinks of two manifests; directories carry no content."""
    a = {e.path: e for e in old if not stat.S_ISDIR(e.mode)}
    b = {e.path: e for e in new if not stat.S_ISDIR(e.mode)}
    out: list[str] = []
    for path in sorted(a.keys() | b.keys()):
        ea, eb = a.get(path), b.get(path)
        if ea and eb and ea.blob == eb.blob and ea.mode == eb.mode:
            continue
        out.extend(_file_diff(path, ea, eb, read, context))
    return "".join(out)


def _file_diff(
    path: str, ea: ManifestEntry | None, eb: ManifestEntry | None, read: Reader, context: int
) -> Iterator[str]:
    yield f"diff --git a/{path} b/{path}\n"
    if ea is None and eb is not None:
        yield f"new file mode {eb.mode:o}\n"
    elif ea is not None and eb is None:
        yield f"deleted file mode {ea.mode:o}\n"
    elif ea is not None and eb is not None and ea.mode != eb.mode:
        yield f"old mode {ea.mode:o}\nnew mode {eb.mode:o}\n"
    if ea and eb and ea.blob == eb.blob:
        return
    data_a = read(ea.blob) if ea and ea.blob else b""
    data_b = read(eb.blob) if eb and eb.blob else b""
    text_a, text_b = _text(data_a), _text(data_b)
    if text_a is None or text_b is None:
        yield f"Binary files {'a/' + path if ea else '/dev/null'} and {'b/' + path if eb else '/dev/null'} differ\n"
        return
    lines = difflib.unified_diff(
        text_a.splitlines(keepends=True),
        text_b.splitlines(keepends=True),
        fromfile=f"a/{path}" if ea else "/dev/null",
        tofile=f"b/{path}" if eb else "/dev/null",
        n=context,
    )
    for line in lines:
        if line.endswith("\n"):
            yield line
        else:
            yield line + "\n\\ No newline at end of file\n"


def _text(data: bytes) -> str | None:
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
