"""Helpers shared by the tests."""

from __future__ import annotations

import os
from pathlib import Path

# The agent's tool call that fixes the built-in task text-slug-separators (runs of spaces
# become one separator).
SLUG_FIX = {
    "name": "edit",
    "arguments": {
        "command": "str_replace",
        "path": "textkit/slug.py",
        "old_str": 'r"\\s", separator',
        "new_str": 'r"\\s+", separator',
    },
}


def write_tree(root: Path, files: dict[str, bytes | str | None], modes: dict[str, int] | None = None) -> Path:
    """Make a tree: value None means an (empty) directory; modes applied afterwards."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = root / rel
        if content is None:
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    for rel, mode in (modes or {}).items():
        os.chmod(root / rel, mode)
    return root


def tree_listing(root: Path) -> dict[str, tuple[int, bytes | str | None]]:
    """Every entry under root -> (st_mode, content | link target | None for dirs)."""
    out: dict[str, tuple[int, bytes | str | None]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = path.lstat()
            if path.is_symlink():
                out[str(path.relative_to(root))] = (st.st_mode, os.readlink(path))
            elif path.is_dir():
                out[str(path.relative_to(root))] = (st.st_mode, None)
            else:
                out[str(path.relative_to(root))] = (st.st_mode, path.read_bytes())
    return out
