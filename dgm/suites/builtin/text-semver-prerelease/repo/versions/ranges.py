"""Version ranges: comma-separated comparators, with ``^`` and ``~`` shorthands.

    >=1.2.0,<2.0.0     both must hold
    ^1.4.2             >=1.4.2,<2.0.0   (^0.3.1 means >=0.3.1,<0.4.0)
    ~1.4.2             >=1.4.2,<1.5.0
    1.4.2              exactly 1.4.2 (also "=1.4.2" or "==1.4.2")
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable

from .semver import InvalidVersion, Version

_OPS = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "==": operator.eq,
    "=": operator.eq,
    "!=": operator.ne,
}
_COMPARATOR = re.compile(r"^\s*(>=|<=|==|!=|>|<|=|\^|~)?\s*(\S+)\s*$")


def _pad(text: str) -> str:
    """Let ranges say "1.4" or "2" for "1.4.0" / "2.0.0"."""
    core, rest = re.match(r"^([^-+]*)(.*)$", text).groups()
    parts = core.split(".")
    while len(parts) < 3:
        parts.append("0")
    return ".".join(parts) + rest


class Range:
    """A parsed range expression; call :meth:`contains` or use ``in``."""

    def __init__(self, text: str):
        self.text = text
        self._checks: list[tuple] = []
        for piece in text.split(","):
            match = _COMPARATOR.match(piece)
            if not match:
                raise InvalidVersion(f"bad range {text!r}")
            op, version_text = match.group(1) or "==", match.group(2)
            version = Version.parse(_pad(version_text))
            if op == "^":
                if version.major > 0:
                    upper = Version(version.major + 1, 0, 0)
                else:
                    upper = Version(0, version.minor + 1, 0)
                self._checks += [(operator.ge, version), (operator.lt, upper)]
            elif op == "~":
                upper = Version(version.major, version.minor + 1, 0)
                self._checks += [(operator.ge, version), (operator.lt, upper)]
            else:
                self._checks.append((_OPS[op], version))

    def contains(self, version: str | Version) -> bool:
        candidate = Version.coerce(version)
        return all(check(candidate, bound) for check, bound in self._checks)

    __contains__ = contains

    def __repr__(self):
        return f"Range({self.text!r})"


def satisfies(version: str | Version, spec: str) -> bool:
    """True if ``version`` lies in the range ``spec``."""
    return Range(spec).contains(version)


def latest(versions: Iterable[str | Version], spec: str | None = None,
           include_prereleases: bool = True) -> Version | None:
    """The highest version (optionally within ``spec``), or ``None``."""
    rng = Range(spec) if spec else None
    best = None
    for item in versions:
        version = Version.coerce(item)
        if not include_prereleases and version.is_prerelease:
            continue
        if rng is not None and version not in rng:
            continue
        if best is None or version > best:
            best = version
    return best
