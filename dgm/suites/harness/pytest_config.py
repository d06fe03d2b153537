"""The pytest configuration the grader owns: the one the task's base repository declares,
found the way pytest finds it, and passed to the judge with `-c` under a name of the
grader's choosing. What a patch adds to or changes in any configuration file therefore
changes nothing about collection, plugins or reporting; a patch may still edit
pyproject.toml, setup.cfg or tox.ini for other reasons."""

from __future__ import annotations

import configparser
import tomllib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

# pytest's own order of precedence in one directory; the suffix keeps each file's format
# when it is passed under another name (pytest picks the loader by suffix for -c).
CONFIG_FILES = (
    ("pytest.toml", ".toml"),
    (".pytest.toml", ".toml"),
    ("pytest.ini", ".ini"),
    (".pytest.ini", ".ini"),
    ("pyproject.toml", ".toml"),
    ("tox.ini", ".ini"),
    ("setup.cfg", ".cfg"),
)
CONFIG_NAMES = frozenset(name for name, _ in CONFIG_FILES)


@dataclass(frozen=True)
class GraderConfig:
    folder: str  # repo-relative folder the configuration applies from (pytest's rootdir)
    suffix: str
    content: bytes  # the base repository's file, verbatim

    def path(self, stem: str) -> str:
        """Where the grader's copy goes, repo-relative: beside the original, so relative
        paths in it (pythonpath, testpaths) mean what they meant."""
        return str(PurePosixPath(self.folder) / f"{stem}{self.suffix}")


def _has_pytest_section(path: Path) -> bool:
    name = path.name
    if name in ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini"):
        return True
    try:
        if name == "pyproject.toml":
            return "pytest" in tomllib.loads(path.read_text()).get("tool", {})
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_string(path.read_text())
    except (tomllib.TOMLDecodeError, configparser.Error, UnicodeDecodeError):
        return False
    return parser.has_section("pytest" if name == "tox.ini" else "tool:pytest")


def locate(base: Path, start: str = ".") -> GraderConfig:
    """The configuration pytest would use for tests under `start` (repo-relative) in the
    clean base repository: the first file with a pytest section, from `start` up to the
    repository root; else a pyproject.toml's folder with no options; else none at all."""
    folder = PurePosixPath(start)
    pyproject: PurePosixPath | None = None
    for current in (folder, *folder.parents):
        for name, suffix in CONFIG_FILES:
            path = base / current / name
            if not path.is_file():
                continue
            if _has_pytest_section(path):
                return GraderConfig(str(current), suffix, path.read_bytes())
            if name == "pyproject.toml" and pyproject is None:
                pyproject = current
    return GraderConfig(str(pyproject or PurePosixPath(".")), ".ini", b"[pytest]\n")


def common_folder(paths: list[str]) -> str:
    """The deepest folder holding every one of the repo-relative `paths` (pytest's start)."""
    parents = [PurePosixPath(p).parent.parts for p in paths] or [()]
    common: list[str] = []
    for parts in zip(*parents, strict=False):
        if len(set(parts)) != 1:
            break
        common.append(parts[0])
    return str(PurePosixPath(*common)) if common else "."
