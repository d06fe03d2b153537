"""The sandbox image: one recipe (Dockerfile + provision.sh + requirements.txt), built as a
docker image and as a plain rootfs directory for bwrap, both keyed by the recipe's hash
and reused while the recipe is unchanged.

Offline (`dgm sandbox build --offline`) needs no container registry: debootstrap makes a
Debian rootfs from Debian's packages, provision.sh runs in a chroot of it with Python
wheels downloaded on the host, and the result is `docker import`ed as the base image."""

from __future__ import annotations

import hashlib
import logging
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import SandboxError

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
RECIPE_FILES = ("Dockerfile", "provision.sh", "requirements.txt")
SUITE = "bookworm"
DEBOOTSTRAP_INCLUDE = "python3,python3-pip,git,patch,procps,ca-certificates"
IMAGE_REPO = "dgm-sandbox"
COMPLETE_MARKER = ".dgm-rootfs-complete"

Progress = Callable[[str], None]


def recipe_hash() -> str:
    h = hashlib.sha256(f"{SUITE}\0{DEBOOTSTRAP_INCLUDE}\0{platform.machine()}\0".encode())
    for name in RECIPE_FILES:
        h.update((HERE / name).read_bytes())
    return h.hexdigest()[:12]


def dgm_home() -> Path:
    """Where images live: $DGM_HOME, else /var/lib/dgm for root (sandbox uids must be able
    to traverse it, which root's home does not allow), else ~/.cache/dgm."""
    if os.environ.get("DGM_HOME"):
        return Path(os.environ["DGM_HOME"])
    return Path("/var/lib/dgm") if os.geteuid() == 0 else Path.home() / ".cache" / "dgm"


def rootfs_dir() -> Path:
    return dgm_home() / "rootfs" / recipe_hash()


def rootfs_ready(path: Path | None = None) -> bool:
    return ((path or rootfs_dir()) / COMPLETE_MARKER).exists()


@dataclass(frozen=True)
class Runtime:
    """dgm's own Python (with the agent's packages) for a sandbox whose image is not dgm's:
    the built rootfs mounted read-only at `mount`, its Python started through its own
    dynamic loader, so it needs nothing of the image's libraries and its children (the
    agent's tools) run the image's programs as they are."""

    rootfs: Path
    mount: str = "/dgm-runtime"  # top level: bwrap can make it over any image

    def python(self) -> list[str]:
        loaders = sorted(self.rootfs.glob("usr/lib/*-linux-gnu/ld-linux*.so.*"))
        if not loaders:
            raise SandboxError(f"no dynamic loader in {self.rootfs}: rebuild it (`dgm sandbox build --offline`)")
        inside = f"{self.mount}/{loaders[0].relative_to(self.rootfs)}"
        libs = f"{self.mount}/{loaders[0].parent.relative_to(self.rootfs)}"
        return [inside, "--library-path", libs, f"{self.mount}/usr/bin/python3"]


def runtime() -> Runtime:
    """The agent runtime from this recipe's rootfs (which `dgm sandbox build` makes)."""
    if not rootfs_ready():
        raise SandboxError(f"no sandbox rootfs at {rootfs_dir()} for the agent's runtime: run `dgm sandbox build`")
    return Runtime(rootfs_dir())


def image_tag() -> str:
    return f"{IMAGE_REPO}:{recipe_hash()}"


def base_tag() -> str:
    return f"{IMAGE_REPO}-base:{recipe_hash()}"


def apt_mirror(sources: Path = Path("/etc/apt/sources.list.d"), legacy: Path = Path("/etc/apt/sources.list")) -> str:
    """The Debian mirror this machine's apt uses (so the build reaches what apt reaches)."""
    texts = [p.read_text() for p in sorted(sources.glob("*.sources"))] if sources.is_dir() else []
    for text in texts:
        for stanza in text.split("\n\n"):
            if re.search(rf"^Suites:.*\b{SUITE}\b", stanza, re.M) and "security" not in stanza:
                match = re.search(r"^URIs:\s*(\S+)", stanza, re.M)
                if match:
                    return match.group(1)
    if legacy.exists():
        match = re.search(rf"^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+{SUITE}\s", legacy.read_text(), re.M)
        if match:
            return match.group(1)
    raise SandboxError(f"no Debian {SUITE} mirror found in apt's sources; pass --mirror URL")


def run_step(cmd: list[str], progress: Progress, what: str, **kw: Any) -> None:
    progress(what)
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise SandboxError(f"{what} failed (exit {proc.returncode}):\n{tail}")


def download_wheels(dest: Path, progress: Progress) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    run_step(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--disable-pip-version-check",
            "--only-binary=:all:",
            "--dest",
            str(dest),
            "-r",
            str(HERE / "requirements.txt"),
        ],
        progress,
        "downloading the sandbox's Python wheels on the host",
    )


def build_rootfs(mirror: str | None, progress: Progress, force: bool = False) -> Path:
    """Debootstrap and provision the rootfs (root only); reused when already complete."""
    dest = rootfs_dir()
    if rootfs_ready(dest) and not force:
        progress(f"rootfs {dest} is ready; reusing it")
        return dest
    if os.geteuid() != 0:
        raise SandboxError("building the rootfs needs root (debootstrap, chroot): run as root")
    if shutil.which("debootstrap") is None:
        raise SandboxError("debootstrap is not installed: apt-get install -y debootstrap")
    partial = dest.with_name(dest.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    shutil.rmtree(dest, ignore_errors=True)
    partial.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    mirror = mirror or apt_mirror()
    run_step(
        ["debootstrap", "--variant=minbase", f"--include={DEBOOTSTRAP_INCLUDE}", SUITE, str(partial), mirror],
        progress,
        f"debootstrap {SUITE} (minbase) into {partial}",
    )
    stage = partial / "tmp" / "dgm"
    download_wheels(stage / "wheels", progress)
    for name in ("provision.sh", "requirements.txt"):
        shutil.copy(HERE / name, stage / name)
    run_step(
        ["chroot", str(partial), "/bin/sh", "/tmp/dgm/provision.sh"],
        progress,
        "provisioning the rootfs",
        env={
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME": "/root",
            "LANG": "C.UTF-8",
        },
    )
    shutil.rmtree(stage)
    (partial / COMPLETE_MARKER).write_text(recipe_hash() + "\n")
    partial.rename(dest)
    progress(f"rootfs ready at {dest}")
    return dest


def build_image(client: Any, offline: bool, mirror: str | None, progress: Progress, force: bool = False) -> str:
    """Build the docker image (and, offline, the rootfs it is imported from). Returns its tag."""
    import docker.errors

    tag = image_tag()
    if not force:
        try:
            client.images.get(tag)
            progress(f"image {tag} is present; reusing it")
            return tag
        except docker.errors.ImageNotFound:
            pass
    with tempfile.TemporaryDirectory(prefix="dgm-image-") as tmp:
        ctx = Path(tmp) / "context"
        ctx.mkdir()
        for name in RECIPE_FILES:
            shutil.copy(HERE / name, ctx / name)
        (ctx / "wheels").mkdir()
        if offline:
            rootfs = build_rootfs(mirror, progress, force=force)
            import_rootfs(client, rootfs, base_tag(), progress)
            base = base_tag()
        else:
            download_wheels(ctx / "wheels", progress)
            base = f"debian:{SUITE}-slim"
        progress(f"docker build {tag} from {base}")
        try:
            client.images.build(
                path=str(ctx),
                tag=tag,
                buildargs={"BASE": base},
                rm=True,
                pull=False,
                network_mode="none" if offline else None,
            )
        except docker.errors.BuildError as exc:
            lines = [c.get("stream", "") for c in exc.build_log if isinstance(c, dict)]
            raise SandboxError(f"docker build failed: {exc}\n{''.join(lines)[-2000:]}") from exc
        if not offline and not rootfs_ready():
            export_rootfs(client, tag, progress)
    return tag


def import_rootfs(client: Any, rootfs: Path, tag: str, progress: Progress, changes: list[str] | None = None) -> None:
    """`docker import` a rootfs folder (its completeness marker left out) as `tag`, with
    Dockerfile instructions `changes` (a LABEL, say) applied."""
    with tempfile.TemporaryDirectory(prefix="dgm-import-", dir=rootfs.parent) as tmp:
        tarball = Path(tmp) / "rootfs.tar"
        progress(f"packing {rootfs} for docker import")
        with tarfile.open(tarball, "w") as tar:
            for entry in sorted(os.listdir(rootfs)):
                if entry != COMPLETE_MARKER:
                    tar.add(rootfs / entry, arcname=entry)
        progress(f"docker import as {tag}")
        repository, _, version = tag.rpartition(":")
        client.api.import_image_from_file(str(tarball), repository=repository, tag=version, changes=changes)


def unpack(chunks: Iterable[bytes], dest: Path) -> None:
    """Extract a tar stream (as docker sends an export or an archive) into `dest`."""
    with tempfile.TemporaryFile() as fh:
        for chunk in chunks:
            fh.write(chunk)
        fh.seek(0)
        with tarfile.open(fileobj=fh) as tar:
            tar.extractall(dest, filter="tar")


def export_rootfs(client: Any, tag: str, progress: Progress, dest: Path | None = None) -> Path:
    """Unpack an image's filesystem as a bwrap rootfs at `dest` (default: dgm's own rootfs,
    for images built without --offline); marked complete only once whole."""
    dest = dest or rootfs_dir()
    partial = dest.with_name(dest.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    container = client.containers.create(tag, command=["true"])
    try:
        progress(f"exporting {tag} as a bwrap rootfs")
        unpack(container.export(), partial)
    finally:
        container.remove(force=True)
    (partial / COMPLETE_MARKER).write_text(tag + "\n")
    partial.chmod(0o755)
    partial.rename(dest)
    return dest
