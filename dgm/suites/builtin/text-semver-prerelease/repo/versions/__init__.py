"""versions: parse, compare and match semantic version strings (semver 2.0.0).

Used by our release tooling to pick the newest artifact and to check plugin
compatibility ranges such as ``^1.4`` or ``>=2.0.0,<3``.
"""

from .ranges import Range, latest, satisfies
from .semver import InvalidVersion, Version

__all__ = ["InvalidVersion", "Range", "Version", "latest", "satisfies"]
