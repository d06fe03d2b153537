"""The :class:`Version` value type.

A version is ``MAJOR.MINOR.PATCH`` with an optional pre-release part after a
hyphen (``1.0.0-rc.1``) and optional build metadata after a plus sign
(``1.0.0+build.7``). Build metadata is kept but never affects ordering or
equality, as the specification requires.
"""

from __future__ import annotations

import functools
import re

_PATTERN = re.compile(
    r"^v?(?P<major>0|[1-9]\d*)\.(?P<minor>0|[1-9]\d*)\.(?P<patch>0|[1-9]\d*)"
    r"(?:-(?P<pre>[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
    r"(?:\+(?P<build>[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)


class InvalidVersion(ValueError):
    """The text is not a semantic version."""


@functools.total_ordering
class Version:
    """A parsed semantic version; instances are immutable and hashable."""

    __slots__ = ("major", "minor", "patch", "prerelease", "build")

    def __init__(self, major: int, minor: int = 0, patch: int = 0,
                 prerelease: str = "", build: str = ""):
        if min(major, minor, patch) < 0:
            raise InvalidVersion("version numbers cannot be negative")
        object.__setattr__(self, "major", major)
        object.__setattr__(self, "minor", minor)
        object.__setattr__(self, "patch", patch)
        object.__setattr__(self, "prerelease", prerelease)
        object.__setattr__(self, "build", build)

    def __setattr__(self, name, value):
        raise AttributeError("Version is immutable")

    @classmethod
    def parse(cls, text: str) -> Version:
        """Parse ``text`` such as ``"1.4.2"``, ``"v2.0.0-beta.3"`` or ``"1.0.0+sha.5114f85"``."""
        match = _PATTERN.match(text.strip())
        if not match:
            raise InvalidVersion(f"not a semantic version: {text!r}")
        pre = match["pre"] or ""
        for ident in pre.split(".") if pre else ():
            if ident.isdigit() and len(ident) > 1 and ident[0] == "0":
                raise InvalidVersion(f"numeric pre-release identifier with leading zero in {text!r}")
        return cls(int(match["major"]), int(match["minor"]), int(match["patch"]),
                   pre, match["build"] or "")

    @classmethod
    def coerce(cls, value: str | Version) -> Version:
        return value if isinstance(value, Version) else cls.parse(value)

    @property
    def is_prerelease(self) -> bool:
        return bool(self.prerelease)

    def release(self) -> tuple[int, int, int]:
        """The ``(major, minor, patch)`` triple."""
        return (self.major, self.minor, self.patch)

    def bump(self, part: str) -> Version:
        """The next ``"major"``, ``"minor"`` or ``"patch"`` release."""
        if part == "major":
            return Version(self.major + 1, 0, 0)
        if part == "minor":
            return Version(self.major, self.minor + 1, 0)
        if part == "patch":
            # 1.2.3-rc.1 -> 1.2.3: finishing a pre-release does not skip a number.
            return Version(self.major, self.minor, self.patch if self.prerelease else self.patch + 1)
        raise ValueError(f"unknown part {part!r}")

    def _key(self):
        return (self.major, self.minor, self.patch, self.prerelease)

    def __eq__(self, other):
        if isinstance(other, str):
            other = Version.parse(other)
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other):
        if isinstance(other, str):
            other = Version.parse(other)
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            text += f"-{self.prerelease}"
        if self.build:
            text += f"+{self.build}"
        return text

    def __repr__(self):
        return f"Version({str(self)!r})"
