"""Parsing single lines of a .env file.

Supported syntax, one assignment per line::

    # a comment
    NAME=value
    export NAME=value          # "export " prefix is ignored
    NAME = value               # blanks around the name and value are ignored
    NAME=value # comment       # unquoted values end at " #"
    NAME='literal $value'      # single quotes: taken as is
    NAME="line\nbreak"         # double quotes: \n, \t, \" and \\ escapes
"""

import re

from .errors import EnvFileError

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unescape(text: str) -> str:
    out = []
    chars = iter(text)
    for char in chars:
        if char == "\\":
            nxt = next(chars, "")
            out.append(_ESCAPES.get(nxt, "\\" + nxt))
        else:
            out.append(char)
    return "".join(out)


def _parse_value(raw: str, lineno: int | None) -> str:
    raw = raw.strip()
    if raw[:1] in ("'", '"'):
        quote = raw[0]
        end = raw.find(quote, 1)
        while quote == '"' and end != -1 and raw[end - 1] == "\\":
            end = raw.find(quote, end + 1)
        if end == -1:
            raise EnvFileError(f"unterminated {quote} quote", lineno)
        rest = raw[end + 1 :].strip()
        if rest and not rest.startswith("#"):
            raise EnvFileError(f"unexpected text after closing quote: {rest!r}", lineno)
        inner = raw[1:end]
        return _unescape(inner) if quote == '"' else inner
    comment = raw.find(" #")
    if comment != -1:
        raw = raw[:comment]
    return raw.rstrip()


def parse_line(line: str, lineno: int | None = None) -> tuple[str, str] | None:
    """Parse one line into ``(name, value)``; ``None`` for blank and comment lines."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    if stripped.startswith("export "):
        stripped = stripped[len("export ") :].lstrip()
    if "=" not in stripped:
        raise EnvFileError(f"expected NAME=value, got {stripped!r}", lineno)
    name, raw = stripped.split("=")
    name = name.strip()
    if not _NAME.match(name):
        raise EnvFileError(f"invalid variable name {name!r}", lineno)
    return name, _parse_value(raw, lineno)
