"""Image variants: dgm's sandbox image plus more toolchains, one folder each under
sandbox/variants/ (`packages.txt`: Debian packages, NAME/bookworm-backports for a newer
one; `setup.sh`: run in the root after them; `package.json` with its lock: npm packages,
installed at /node_modules; `cargo-config.toml`: cargo's offline sources).

`dgm sandbox build --variant NAME` builds one offline like the base image: a copy of the
base rootfs, the Debian packages installed in a chroot of it (Debian's mirror is the only
server it reaches), the npm packages installed on the host from the lock file and copied
in. The rootfs serves bwrap; `docker import` of it serves docker. Both are keyed by the
base recipe's hash and the variant's files, and reused while those are unchanged. A task
names the variant it needs by its image tag (`Variant.tag`)."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import image
from .errors import SandboxError

FOLDER = image.HERE / "variants"
NODE_MODULES = "node_modules"  # at the root, so node and babel find it from any project
ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8"}


@dataclass(frozen=True)
class Variant:
    name: str

    @property
    def folder(self) -> Path:
        return FOLDER / self.name

    def recipe_hash(self) -> str:
        h = hashlib.sha256(f"{image.recipe_hash()}\0{self.name}\0".encode())
        for path in sorted(p for p in self.folder.rglob("*") if p.is_file()):
            h.update(path.relative_to(self.folder).as_posix().encode() + b"\0" + path.read_bytes())
        return h.hexdigest()[:12]

    @property
    def tag(self) -> str:
        return f"{image.IMAGE_REPO}-{self.name}:{self.recipe_hash()}"

    def rootfs_dir(self) -> Path:
        return image.dgm_home() / "rootfs" / f"{self.recipe_hash()}-{self.name}"

    def packages(self) -> list[str]:
        lines = (self.folder / "packages.txt").read_text().splitlines()
        return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


VARIANTS: dict[str, Variant] = {p.name: Variant(p.name) for p in sorted(FOLDER.iterdir()) if p.is_dir()}


def for_tag(tag: str) -> Variant | None:
    """The variant whose image tag this is (any recipe hash), if any."""
    repository = tag.partition(":")[0]
    return next((v for v in VARIANTS.values() if repository == f"{image.IMAGE_REPO}-{v.name}"), None)


def rootfs(tag: str) -> Path | None:
    """The bwrap rootfs of a variant's tag: built, and of the current recipe, or an error."""
    variant = for_tag(tag)
    if variant is None:
        return None
    if tag != variant.tag or not image.rootfs_ready(variant.rootfs_dir()):
        raise SandboxError(f"the {variant.name} image is not built: run `dgm sandbox build --variant {variant.name}`")
    return variant.rootfs_dir()


def _chroot_apt(rootfs: Path, packages: list[str], setup: Path | None, progress: image.Progress) -> None:
    """apt-get install in a chroot, with /proc mounted (a JDK's set-up needs it), then the
    variant's setup.sh if it has one."""
    shutil.copy("/etc/resolv.conf", rootfs / "etc" / "resolv.conf")
    subprocess.run(["mount", "-t", "proc", "proc", str(rootfs / "proc")], check=True)
    try:
        script = (
            # the release's backports too, for packages named NAME/bookworm-backports (a newer Go)
            f"sed 's/ {image.SUITE} / {image.SUITE}-backports /' /etc/apt/sources.list"
            " > /etc/apt/sources.list.d/backports.list"
            " && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "
            + " ".join(packages)
            + " && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb"
        )
        image.run_step(
            ["chroot", str(rootfs), "/bin/sh", "-c", script], progress, "installing Debian packages", env=ENV
        )
        if setup is not None:
            shutil.copy(setup, rootfs / "tmp" / "dgm-setup.sh")
            image.run_step(["chroot", str(rootfs), "/bin/sh", "/tmp/dgm-setup.sh"], progress, "set-up", env=ENV)
            (rootfs / "tmp" / "dgm-setup.sh").unlink()
    finally:
        subprocess.run(["umount", str(rootfs / "proc")], check=True)
        (rootfs / "etc" / "resolv.conf").write_text("")


def _unmount_under(folder: Path) -> None:
    """Unmount whatever is mounted inside `folder` (a build killed before its clean-up leaves
    its chroot's /proc mounted there), deepest first, so that removing the folder is safe."""
    prefix = str(folder.resolve()) + "/"
    mounts = [line.split()[1] for line in Path("/proc/self/mounts").read_text().splitlines()]
    for point in sorted((m for m in mounts if m.startswith(prefix)), key=len, reverse=True):
        subprocess.run(["umount", "--lazy", point], check=True)


def _npm(variant: Variant, dest: Path, progress: image.Progress) -> None:
    """The variant's npm packages, installed on the host from the lock file, to `dest`."""
    if not (variant.folder / "package-lock.json").exists():
        return
    if shutil.which("npm") is None:
        raise SandboxError("the variant's JavaScript packages need npm on the host: apt-get install -y npm")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("package.json", "package-lock.json"):
            shutil.copy(variant.folder / name, Path(tmp) / name)
        image.run_step(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], progress, "npm ci (host)", cwd=tmp)
        shutil.move(str(Path(tmp) / NODE_MODULES), dest)


def build_rootfs(variant: Variant, mirror: str | None, progress: image.Progress, force: bool = False) -> Path:
    dest = variant.rootfs_dir()
    if image.rootfs_ready(dest) and not force:
        progress(f"rootfs {dest} is ready; reusing it")
        return dest
    base = image.build_rootfs(mirror, progress)
    partial = dest.with_name(dest.name + ".partial")
    _unmount_under(partial)
    shutil.rmtree(partial, ignore_errors=True)
    shutil.rmtree(dest, ignore_errors=True)
    progress(f"copying the base rootfs to {partial}")
    subprocess.run(["cp", "-a", "--reflink=auto", str(base), str(partial)], check=True)
    (partial / image.COMPLETE_MARKER).unlink()
    setup = variant.folder / "setup.sh"
    _chroot_apt(partial, variant.packages(), setup if setup.exists() else None, progress)
    _npm(variant, partial / NODE_MODULES, progress)
    if (variant.folder / "cargo-config.toml").exists():
        (partial / "opt" / "dgm").mkdir(parents=True, exist_ok=True)
        shutil.copy(variant.folder / "cargo-config.toml", partial / "opt" / "dgm" / "cargo-config.toml")
    (partial / image.COMPLETE_MARKER).write_text(variant.tag + "\n")
    partial.rename(dest)
    progress(f"rootfs ready at {dest}")
    return dest


def build_image(
    client: Any, variant: Variant, mirror: str | None, progress: image.Progress, force: bool = False
) -> str:
    """The variant's rootfs, `docker import`ed as its tag (reused when present)."""
    import docker.errors

    rootfs = build_rootfs(variant, mirror, progress, force)
    if not force:
        try:
            client.images.get(variant.tag)
            progress(f"image {variant.tag} is present; reusing it")
            return variant.tag
        except docker.errors.ImageNotFound:
            pass
    image.import_rootfs(client, rootfs, variant.tag, progress)
    return variant.tag
