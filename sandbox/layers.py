"""An image's own layers, as docker's overlay2 driver keeps them, used in place.

bwrap runs an image from these folders (one read-only overlay of them, mounted in the
session's own mount namespace) instead of unpacking a flattened copy per image, so images
that share layers (a SWE-bench environment and its instances, or pulled images with a
common base) share them on disk for bwrap as they do for docker. `dgm bench env build`
builds a new layer the same way: an overlay over the parent's layers with an upper folder
of its own, which then becomes the image's top layer (`commit`).

Only root can read docker's folders; without root, or with another storage driver,
`of_image` returns None and callers unpack the image as before."""

from __future__ import annotations

import io
import json
import os
import stat
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

OPAQUE = "trusted.overlay.opaque"
# a page: the kernel's limit on a mount's option string
OPTIONS_LIMIT = 4000


@dataclass(frozen=True)
class Layers:
    """An image's layer folders, the top one first."""

    dirs: tuple[Path, ...]

    @property
    def single(self) -> Path | None:
        """The one folder of a one-layer image (a whole root, nothing to merge)."""
        return self.dirs[0] if len(self.dirs) == 1 else None

    def mount_options(self, upper: Path | None = None, work: Path | None = None) -> tuple[str, str]:
        """(folder to mount from, options) for `mount -t overlay`: docker's short links
        (`l/ID`, relative to its overlay2 folder) keep many layers under the kernel's limit."""
        cwd, names = "/", [str(d) for d in self.dirs]
        roots = {d.parent.parent for d in self.dirs}
        if len(roots) == 1 and all((d.parent / "link").is_file() for d in self.dirs):
            cwd = str(roots.pop())
            names = [f"l/{(d.parent / 'link').read_text().strip()}" for d in self.dirs]
        options = f"lowerdir={':'.join(names)},redirect_dir=off,metacopy=off"
        if upper is not None and work is not None:
            options += f",upperdir={upper},workdir={work}"
        if len(options) > OPTIONS_LIMIT:
            raise ValueError(f"{len(self.dirs)} layers: too many for one overlay mount")
        return cwd, options

    def mountable(self) -> bool:
        """Whether one overlay mount can hold them all (else the image is unpacked instead)."""
        try:
            self.mount_options()
        except ValueError:
            return False
        return True

    def mount_command(self, target: Path, upper: Path | None = None, work: Path | None = None) -> list[str]:
        cwd, options = self.mount_options(upper, work)
        return ["env", "-C", cwd, "mount", "-t", "overlay", "-o", options, "dgm-layers", str(target)]

    def top_entries(self) -> dict[str, str | None]:
        """The merged root's top-level names: name -> a symlink's target, or None for a
        folder (files at the top are left out, as bwrap's binds leave them)."""
        seen: dict[str, tuple[str, str | None]] = {}
        for folder in self.dirs:
            for name in os.listdir(folder):
                if name in seen:
                    continue
                st = os.lstat(folder / name)
                if _whiteout(st):
                    seen[name] = ("gone", None)
                elif stat.S_ISLNK(st.st_mode):
                    seen[name] = ("link", os.readlink(folder / name))
                else:
                    seen[name] = ("dir" if stat.S_ISDIR(st.st_mode) else "file", None)
        return {name: target for name, (kind, target) in sorted(seen.items()) if kind in ("dir", "link")}


def _whiteout(st: os.stat_result) -> bool:
    return stat.S_ISCHR(st.st_mode) and st.st_rdev == 0


def of_image(attrs: dict[str, Any]) -> Layers | None:
    """The layers of an image (its `docker image inspect` attributes), where dgm can use
    them: the overlay2 driver, and root to read its folders."""
    graph = attrs.get("GraphDriver") or {}
    data = graph.get("Data") or {}
    if graph.get("Name") != "overlay2" or os.geteuid() != 0 or not data.get("UpperDir"):
        return None
    dirs = [Path(data["UpperDir"]), *(Path(d) for d in (data.get("LowerDir") or "").split(":") if d)]
    return Layers(tuple(dirs)) if all(d.is_dir() for d in dirs) else None


def removed(upper: Path) -> Iterator[str]:
    """What an overlay's upper folder takes away from the layers below it: whited-out
    paths, and folders made opaque (their lower contents hidden); root-relative."""
    for dirpath, dirnames, filenames in os.walk(upper):
        rel = Path(dirpath).relative_to(upper)
        if dirpath != str(upper) and _has_opaque(dirpath):
            yield str(rel)
        for name in [*dirnames, *filenames]:
            if _whiteout(os.lstat(Path(dirpath) / name)):
                yield str(rel / name)


def _has_opaque(path: str) -> bool:
    try:
        return os.getxattr(path, OPAQUE, follow_symlinks=False) == b"y"
    except OSError:
        return False


def pack(upper: Path, dest: Path) -> None:
    """A tar of the upper folder's contents (whiteouts left out: `removed` lists them)."""

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        return None if info.ischr() and info.devmajor == 0 and info.devminor == 0 else info

    with tarfile.open(dest, "w", format=tarfile.PAX_FORMAT) as tar:
        for entry in sorted(os.listdir(upper)):
            tar.add(upper / entry, arcname=entry, filter=keep)


def commit(engine: Any, parent: str, upper: Path, name: str, labels: dict[str, str], scratch: Path) -> str:
    """Make `name` an image of `parent` plus the upper folder: a `docker build` with no
    network whose steps remove what the upper folder removes (as root, the parent's user
    restored after) and add its contents. The parent's configuration (its user, command,
    entrypoint) stays as it was. Returns the image id."""
    import docker.errors

    gone = sorted(set(removed(upper)))
    user = (engine.images.get(parent).attrs.get("Config") or {}).get("User") or "0"
    steps = [f"FROM {parent}"]
    if gone:
        paths = json.dumps(["/bin/rm", "-rf", "--", *(f"/{p}" for p in gone)])
        steps += ["USER 0", f"RUN {paths}", f"USER {user}"]
    steps.append("ADD layer.tar /")  # a local tar is unpacked with its owners and modes
    layer, context = scratch / "layer.tar", scratch / "context.tar"
    try:
        pack(upper, layer)
        # the build context written here, beside docker's disk, not spooled through /tmp
        with tarfile.open(context, "w") as tar:
            dockerfile = ("\n".join(steps) + "\n").encode()
            info = tarfile.TarInfo("Dockerfile")
            info.size = len(dockerfile)
            tar.addfile(info, io.BytesIO(dockerfile))
            tar.add(layer, arcname="layer.tar")
        layer.unlink()
        with open(context, "rb") as fh:
            image, _ = engine.images.build(
                fileobj=fh, custom_context=True, tag=name, labels=labels, network_mode="none", pull=False,
                rm=True, forcerm=True,
            )  # fmt: skip
    except docker.errors.BuildError as exc:
        raise RuntimeError(f"adding the layer to {parent} failed: {exc}") from exc
    finally:
        layer.unlink(missing_ok=True)
        context.unlink(missing_ok=True)
    return str(image.id)
