"""Parsing INI-style text into a :class:`Config`.

Syntax::

    ; comment            (also "# comment"; only at the start of a line)
    [section]
    key = value          (or "key: value"; blanks around key and value are ignored)

Options must appear inside a section. A section that appears twice is merged,
and a repeated option keeps the last value.
"""

import os
from pathlib import Path

from .config import Config
from .errors import ParseError

_COMMENT_PREFIXES = ("#", ";")


def _split_option(line: str, lineno: int) -> tuple[str, str]:
    positions = [p for p in (line.find("="), line.find(":")) if p != -1]
    if not positions:
        raise ParseError(lineno, f"expected 'key = value', got {line!r}")
    cut = min(positions)
    key, value = line[:cut].strip(), line[cut + 1 :].strip()
    if not key:
        raise ParseError(lineno, "option without a name")
    return key.lower(), value


def parse(text: str) -> Config:
    """Parse configuration ``text``."""
    config = Config()
    section = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(_COMMENT_PREFIXES):
            continue
        if line.startswith("["):
            if not line.endswith("]") or not line[1:-1].strip():
                raise ParseError(lineno, f"bad section header {line!r}")
            section = config.add_section(line[1:-1])
            continue
        if section is None:
            raise ParseError(lineno, "option outside of any section")
        key, value = _split_option(line, lineno)
        section[key] = value
    return config


def parse_file(path: str | os.PathLike) -> Config:
    """Read and parse the file at ``path`` (UTF-8)."""
    return parse(Path(path).read_text(encoding="utf-8"))
