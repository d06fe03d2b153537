"""Images dgm did not build (a benchmark's per-task environments, such as SWE-bench's
`swebench/sweb.eval.x86_64.<id>` images): docker runs them as they are; bwrap runs them
from docker's own layer folders (see layers.py), or where it cannot, from their exported
filesystem, unpacked once per image id; a folder inside one (the task's repository at
/testbed) is copied out of a container of it when asked.

The image must be in the local docker engine: pulled (`dgm bench pull`) or built
(`dgm bench env build`). Nothing here pulls."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path, PurePosixPath
from typing import Any

from . import image, layers
from .errors import BackendUnavailable, SandboxError

log = logging.getLogger(__name__)


class ImageMissing(SandboxError):
    """The image is not in the local docker engine."""


def client() -> Any:  # a docker.DockerClient (docker-py ships no types)
    import docker
    import docker.errors

    try:
        engine = docker.from_env()
        engine.ping()
    except docker.errors.DockerException as exc:
        raise BackendUnavailable(
            f"no docker daemon answers ({type(exc).__name__}); a task's own image needs one to run or to be "
            "unpacked for bwrap: install docker.io and start dockerd (as root: `dockerd &`)"
        ) from exc
    return engine


def image_id(engine: Any, name: str) -> str:
    """The image's content id (sha256:...), which keys every cache of it."""
    import docker.errors

    try:
        return str(engine.images.get(name).id)
    except docker.errors.ImageNotFound as exc:
        raise ImageMissing(
            f"image {name} is not present: `dgm bench pull SUITE` fetches a suite's images (with network), "
            "`dgm bench env build SUITE` builds equivalents offline"
        ) from exc


def present(name: str) -> bool:
    try:
        image_id(client(), name)
    except (ImageMissing, BackendUnavailable):
        return False
    return True


def _cache(kind: str, ident: str) -> Path:
    root = image.dgm_home() / "foreign" / kind
    root.mkdir(mode=0o755, parents=True, exist_ok=True)
    return root / ident.removeprefix("sha256:")[:16]


def cached_rootfs(ident: str) -> Path:
    """Where the bwrap rootfs of the image with that id lives (whether or not it is there)."""
    return _cache("rootfs", ident)


def rootfs(name: str) -> Path | layers.Layers:
    """The image's filesystem for bwrap: docker's own layer folders where dgm can use them
    (overlay2, as root), else a copy unpacked on first use (one per image id)."""
    engine = client()
    ident = image_id(engine, name)
    found = layers.of_image(engine.images.get(ident).attrs)
    if found is not None and found.mountable():
        return found
    dest = cached_rootfs(ident)
    if not image.rootfs_ready(dest):
        image.export_rootfs(engine, name, log.info, dest)
    return dest


def copy_dir(name: str, path: str, dest: Path) -> Path:
    """Copy the folder `path` of the image to `dest` (which must not exist). Nothing is
    kept: the caller keeps what it needs (a grader, once per run)."""
    engine = client()
    partial = dest.with_name(dest.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    container = engine.containers.create(name, command=["true"])
    try:
        stream, _ = container.get_archive(path)
        image.unpack(stream, partial)
    finally:
        container.remove(force=True)
    # get_archive wraps the folder in one named after it
    (partial / PurePosixPath(path).name).rename(dest)
    partial.rmdir()
    return dest
