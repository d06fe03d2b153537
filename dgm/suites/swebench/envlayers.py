"""The layers of `dgm bench env build`, as the official harness has them: a base per Debian
release (`dgm-swe-base:<release>`), an environment per repository and spec
(`dgm-swe-env:<repo>-<hash>`: the spec's installs, shared by the versions whose specs
install the same), and a thin instance layer (`dgm-env/<official name>`: the repository
at its base commit, the project installed).

Each new layer is built in an overlay over its parent's docker layers (`building`), and
committed on top of the parent (`sandbox.layers.commit`), so instances of one environment
share everything below their own layer, in docker and, through the same folders, in
bwrap. Labels record each image's layer kind and parent, for `images` and `prune`."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sandbox import foreign, image, layers

from ..task import OFFLINE_REPOSITORY, BenchmarkError

BASE_REPOSITORY = "dgm-swe-base"
ENV_REPOSITORY = "dgm-swe-env"
KIND, PARENT = "dgm.layer", "dgm.parent"


def work_root() -> Path:
    return image.dgm_home() / "swe-env"


def _unmount(path: Path) -> None:
    if path.is_dir() and os.path.ismount(path):
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


@contextlib.contextmanager
def building(engine, parent: str, slug: str) -> Iterator[tuple[Path, Path]]:
    """(merged, upper): a writable view of `parent`'s filesystem whose changes land in
    `upper`, on the same disk as docker's layers. Without docker's overlay2 folders the
    parent is unpacked once into the build folder and is the one lower layer."""
    folder = work_root() / "build" / slug
    _unmount(folder / "merged")
    shutil.rmtree(folder, ignore_errors=True)
    for name in ("upper", "work", "merged"):
        (folder / name).mkdir(parents=True)
    lower = layers.of_image(engine.images.get(parent).attrs)
    if lower is None:
        lower = layers.Layers((image.export_rootfs(engine, parent, lambda m: None, folder / "lower"),))
    command = lower.mount_command(folder / "merged", folder / "upper", folder / "work")
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchmarkError(f"cannot mount an overlay of {parent} to build on: {proc.stderr.strip()}")
    try:
        yield folder / "merged", folder / "upper"
    finally:
        _unmount(folder / "merged")


def finish(engine, parent: str, upper: Path, name: str, labels: dict[str, str]) -> str:
    """Commit the upper folder as `name`'s own layer on `parent`; an image that had the
    name before and is now unnamed is removed with its caches. Removes the build folder."""
    replaced = foreign.image_id(engine, name) if foreign.present(name) else None
    try:
        ident = layers.commit(engine, parent, upper, name, {**labels, PARENT: parent}, upper.parent)
    except RuntimeError as exc:
        raise BenchmarkError(f"{name}: {exc}") from exc
    shutil.rmtree(upper.parent, ignore_errors=True)
    if replaced and replaced != ident:
        forget(engine, replaced)
    return name


def forget(engine, ident: str) -> None:
    """Remove an image that no name points to any more, with dgm's caches of it."""
    import docker.errors

    with contextlib.suppress(docker.errors.APIError):
        if not engine.images.get(ident).tags:
            engine.images.remove(ident)
    shutil.rmtree(foreign.cached_rootfs(ident), ignore_errors=True)


@dataclass(frozen=True)
class Built:
    """One of dgm's SWE-bench images: its kind, its parent and its own layer's size."""

    name: str
    kind: str  # base, environment or instance
    parent: str | None
    own_bytes: int


def images(engine) -> list[Built]:
    """Every SWE-bench image `dgm bench env build` made (and, as instances, older flat ones)."""
    found = []
    by_name = {}
    for item in engine.images.list():
        labels = item.attrs.get("Config", {}).get("Labels") or {}
        for tag in item.tags:
            repository = tag.rpartition(":")[0]
            if repository in (BASE_REPOSITORY, ENV_REPOSITORY) or repository.startswith(OFFLINE_REPOSITORY + "/"):
                by_name[tag] = (item.attrs.get("Size", 0), labels)
    for tag, (size, labels) in sorted(by_name.items()):
        parent = labels.get(PARENT)
        below = by_name.get(parent, (0, {}))[0] if parent else 0
        kind = labels.get(KIND) or ("base" if tag.startswith(BASE_REPOSITORY) else "instance")
        found.append(Built(tag, kind, parent, max(size - below, 0)))
    return found


def needed(built: list[Built], keep: set[str]) -> set[str]:
    """The images `keep` names and every layer image below them."""
    by_name = {b.name: b for b in built}
    found: set[str] = set()
    for name in keep:
        while name in by_name and name not in found:
            found.add(name)
            name = by_name[name].parent or ""
    return found


def prune(engine, keep: set[str], dry_run: bool = False) -> list[Built]:
    """Remove every image of dgm's SWE-bench layers that `keep` (instance names) does not
    need, instances first, then environments and bases left without one; and dgm's copies
    of images that are gone or that bwrap runs from their layers. Returns what was (or, dry, would be) removed."""
    built = images(engine)
    used = needed(built, keep)
    order = {"instance": 0, "environment": 1, "base": 2}
    gone = sorted((b for b in built if b.name not in used), key=lambda b: (order.get(b.kind, 0), b.name))
    if dry_run:
        return gone
    for item in gone:
        ident = foreign.image_id(engine, item.name)
        engine.images.remove(item.name)
        forget(engine, ident)
    # an unpacked copy is needed only for an image still present that bwrap cannot run in place
    needs_copy = {
        item.id.removeprefix("sha256:")[:16]
        for item in engine.images.list(all=True)
        if layers.of_image(item.attrs) is None
    }
    for kind in ("rootfs", "dirs"):
        folder = image.dgm_home() / "foreign" / kind
        for cached in folder.iterdir() if folder.is_dir() else ():
            if cached.name.removesuffix(".partial") not in needs_copy:
                shutil.rmtree(cached, ignore_errors=True)
    builds = work_root() / "build"
    for folder in builds.iterdir() if builds.is_dir() else ():
        if not os.path.ismount(folder / "merged"):  # mounted: a build in progress (a crashed one is redone)
            shutil.rmtree(folder, ignore_errors=True)
    return gone
