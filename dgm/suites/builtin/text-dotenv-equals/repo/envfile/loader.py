"""Loading whole .env files."""

import os
from collections.abc import Iterable, MutableMapping
from pathlib import Path

from .parser import parse_line


def parse_env(lines: Iterable[str]) -> dict[str, str]:
    """Parse the lines of a .env file; later assignments win over earlier ones."""
    values: dict[str, str] = {}
    for lineno, line in enumerate(lines, start=1):
        parsed = parse_line(line, lineno)
        if parsed is not None:
            name, value = parsed
            values[name] = value
    return values


def load_env(path: str | os.PathLike) -> dict[str, str]:
    """Read and parse the .env file at ``path`` (UTF-8)."""
    text = Path(path).read_text(encoding="utf-8")
    return parse_env(text.splitlines())


def apply_env(
    values: dict[str, str],
    environ: MutableMapping[str, str] | None = None,
    override: bool = False,
) -> list[str]:
    """Copy ``values`` into ``environ`` (``os.environ`` by default).

    Existing variables are kept unless ``override`` is true. Returns the names
    that were set.
    """
    target = os.environ if environ is None else environ
    changed = []
    for name, value in values.items():
        if override or name not in target:
            target[name] = value
            changed.append(name)
    return changed
