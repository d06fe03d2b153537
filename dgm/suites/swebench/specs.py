"""SWE-bench's per-repository, per-version environment specs (from the `swebench` package,
see scripts/swebench_specs.py), and what of them an offline build can honour.

An offline build has Debian's Pythons (one per Debian release), Debian's packages and
PyPI's wheels, downloaded while the image is built; the install itself runs with no
network. It cannot install conda-only packages or give a Python that no Debian release on
the reachable mirror ships (3.5-3.8 and 3.10: no package registry offers them): such
instances are listed with the reason, never built in some other environment."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

SPECS_FILE = Path(__file__).resolve().parent / "specs.json"
# The Debian release whose python3 is that version.
DEBIAN_FOR_PYTHON = {"3.9": "bullseye", "3.11": "bookworm", "3.13": "trixie"}
# Packages the official build replaces in requirements files (yanked from PyPI).
REPLACED = {"types-pkg_resources": "types-setuptools"}


@cache
def _data() -> dict[str, Any]:
    return json.loads(SPECS_FILE.read_text())


def all_specs() -> dict[str, dict[str, dict[str, Any]]]:
    return _data()["specs"]


def requirements_paths(repo: str) -> tuple[str, ...]:
    """Where the repository keeps the requirements a spec's `packages: requirements.txt`
    means (the first that exists at the environment's commit counts)."""
    return tuple(_data()["requirements_paths"].get(repo, ()))


def requirements_text(read: Callable[[str], str | None], path: str) -> str:
    """A requirements file as the official build installs it: `-e .`, comments and `.[test`
    lines dropped, one level of `-r FILE` inlined (its lines first), yanked packages
    replaced. `read(path)` gives a file of the repository at the environment's commit."""
    keep = lambda line: not line.strip().startswith(("-e .", "#", ".[test"))  # noqa: E731
    folder = path.rpartition("/")[0]
    included, own = [], []
    for line in (read(path) or "").split("\n"):
        if line.strip().startswith("-r"):
            name = line.strip()[2:].strip()
            text = read(f"{folder}/{name}" if folder else name) or ""
            included += [extra for extra in text.split("\n") if keep(extra)]
        elif keep(line):
            own.append(line)
    text = "\n".join([*included, "\n".join(own)])
    for old, new in REPLACED.items():
        text = re.sub(rf"^{re.escape(old)}([<>=!~]=?.*|$)", new, text, flags=re.M)
    return text


@dataclass(frozen=True)
class Recipe:
    """How to build one instance's environment offline, or why it cannot be."""

    instance_id: str
    debian: str | None
    install: str
    # installed in the official order: packages (conda's, here PyPI's), the requirements
    # file, pip_packages, the Debian packages of pre_install (the environment layer); then
    # pre_install's other steps and the install command (the instance layer)
    packages: tuple[str, ...] = ()
    requirement_files: tuple[str, ...] = ()  # candidates: the first present is used
    pip_packages: tuple[str, ...] = ()
    apt_packages: tuple[str, ...] = ()
    pre_install: tuple[str, ...] = ()  # run in the instance's /testbed (with network) before the install
    reason: str | None = None  # None: buildable

    @property
    def buildable(self) -> bool:
        return self.reason is None


def _apt_only(step: str) -> tuple[str, ...] | None:
    """The packages one pre_install step installs, when all it does is apt-get update,
    upgrade or install; None when it does anything else."""
    packages: list[str] = []
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


def split_pre_install(steps: list[str] | tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A spec's pre_install steps as (the Debian packages its leading apt-get steps install,
    the steps from the first other one on). The packages go into the environment layer,
    which every instance of the spec shares; the other steps (editing the repository,
    generating locales, downloading a source archive) run in each instance's layer, in
    /testbed, in their order, as the official instance build runs them."""
    packages: list[str] = []
    for i, step in enumerate(steps):
        apt = _apt_only(step)
        if apt is None:
            return tuple(packages), tuple(steps[i:])
        packages += apt
    return tuple(packages), ()


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
    apt, pre_install = split_pre_install(spec.get("pre_install") or ())
    packages = str(spec.get("packages") or "")
    files: tuple[str, ...] = ()
    conda: list[str] = []
    if packages == "environment.yml":
        return Recipe(iid, debian, "", reason="its packages come from a conda environment file (conda-only)")
    if packages == "requirements.txt":
        files = requirements_paths(row["repo"])
        if not files:
            return Recipe(iid, debian, "", reason=f"no requirements file is known for {row['repo']}")
    elif packages:
        # conda package names and pins (name=1.2), taken as PyPI's; the build fails clearly if one is not there
        conda = [re.sub(r"(?<![=<>!~])=(?!=)", "==", p) for p in packages.split()]
    install = str(spec.get("install") or "")
    if not install:
        return Recipe(iid, debian, "", reason="its spec has no install command")
    pip = tuple(spec.get("pip_packages") or ())
    return Recipe(iid, debian, install, tuple(conda), files, pip, apt, pre_install)
