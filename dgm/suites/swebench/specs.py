"""SWE-bench's per-repository, per-version environment specs (from the `swebench` package,
see scripts/swebench_specs.py), and what of them an offline build can honour.

An offline build has Debian's Pythons (one per Debian release) and PyPI's wheels. It
cannot install conda-only packages, run a spec's apt-get steps, or give a Python that no
Debian release ships: such instances are listed with the reason, never built in some
other environment."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

SPECS_FILE = Path(__file__).resolve().parent / "specs.json"
# The Debian release whose python3 is that version.
DEBIAN_FOR_PYTHON = {"3.9": "bullseye", "3.11": "bookworm", "3.13": "trixie"}
# A spec's "packages" value that names a file rather than packages.
REQUIREMENT_FILES = {
    "requirements.txt": (
        "requirements.txt",
        "requirements-dev.txt",
        "requirements-test.txt",
        "tests/requirements/py3.txt",
    )
}


@cache
def all_specs() -> dict[str, dict[str, dict[str, Any]]]:
    return json.loads(SPECS_FILE.read_text())["specs"]


@dataclass(frozen=True)
class Recipe:
    """How to build one instance's environment offline, or why it cannot be."""

    instance_id: str
    debian: str | None
    install: str
    pip_packages: tuple[str, ...] = ()
    requirement_files: tuple[str, ...] = ()
    apt_packages: tuple[str, ...] = ()  # Debian packages (a spec's apt-get install steps)
    reason: str | None = None  # None: buildable

    @property
    def buildable(self) -> bool:
        return self.reason is None


def apt_packages(steps: list[str] | tuple[str, ...]) -> tuple[str, ...] | None:
    """The packages a spec's pre_install steps install with apt-get, or None when a step does
    anything else (download a source archive, run a script): that an offline build cannot."""
    packages: list[str] = []
    for step in steps:
        for command in step.split("&&"):
            words = [w for w in command.split() if "=" not in w or w.startswith("-")]
            if words[:1] != ["apt-get"]:
                return None
            verbs = [w for w in words[1:] if not w.startswith("-")]
            if verbs[:1] == ["install"]:
                packages += verbs[1:]
            elif verbs not in (["update"], ["upgrade"]):
                return None
    return tuple(packages)


def recipe(row: dict[str, Any]) -> Recipe:
    """The offline recipe for a dataset row (repo, version, instance_id)."""
    iid = row["instance_id"]
    spec = all_specs().get(row["repo"], {}).get(str(row.get("version")))
    if spec is None:
        return Recipe(iid, None, "", reason=f"no environment spec for {row['repo']} version {row.get('version')}")
    python = str(spec.get("python"))
    debian = DEBIAN_FOR_PYTHON.get(python)
    if debian is None:
        have = ", ".join(f"{v} ({d})" for v, d in DEBIAN_FOR_PYTHON.items())
        return Recipe(iid, None, "", reason=f"Python {python} is not available offline (Debian gives {have})")
    apt = apt_packages(spec.get("pre_install") or ())
    if apt is None:
        return Recipe(
            iid, debian, "", reason="its spec runs set-up steps (pre_install) other than installing apt packages"
        )
    packages = str(spec.get("packages") or "")
    files: tuple[str, ...] = ()
    pip: list[str] = list(spec.get("pip_packages") or ())
    if packages == "environment.yml":
        return Recipe(iid, debian, "", reason="its packages come from a conda environment file (conda-only)")
    if packages in REQUIREMENT_FILES:
        files = REQUIREMENT_FILES[packages]
    elif packages:
        # conda package names and pins (name=1.2), taken as PyPI's; the build fails clearly if one is not there
        pip += [re.sub(r"(?<![=<>!~])=(?!=)", "==", p) for p in packages.split()]
    install = str(spec.get("install") or "")
    if not install:
        return Recipe(iid, debian, "", reason="its spec has no install command")
    return Recipe(iid, debian, install, tuple(pip), files, apt)
