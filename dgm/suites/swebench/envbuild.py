"""`dgm bench env build`: equivalents of SWE-bench's per-instance images, built without a
container registry, so the official route runs offline.

Three layers, as the official harness has them (envlayers.py): a Debian root with the
spec's Python (debootstrapped once per release); an environment per repository, version
and spec: a virtual environment at /opt/miniconda3/envs/testbed behind a stand-in for
conda's `activate`, so the row's eval script (`source /opt/miniconda3/bin/activate; conda
activate testbed`) runs unchanged; and per instance the repository at its base commit in
/testbed with its history, the spec's other set-up steps, and the project installed.
Wheels are downloaded in a chroot that shares the host's network; every install runs with
no network, from those wheels only. The wheels stay in the image and the environment's pip
is pointed at them, so an eval script's own `pip install -e .` works offline as it would
online. The instance is named dgm-env/<the official image's name>."""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from sandbox import foreign, image

from ..task import BenchmarkError, Environment
from . import envlayers
from .specs import Recipe, requirements_text

log = logging.getLogger(__name__)
Progress = Callable[[str], None]
Locks = Callable[[str], AbstractContextManager]  # a lock per name: what two workers need is built once

DEBIAN_PACKAGES = "python3,python3-venv,python3-pip,python3-dev,build-essential,git,patch,ca-certificates,procps"
WHEELS = "/opt/dgm-wheels"
HOST_CA = "/tmp/dgm-host-ca.crt"
ENV = "/opt/miniconda3/envs/testbed"
ACTIVATE = """# dgm's stand-in for conda's activate script: `conda activate NAME` enters the virtual
# environment /opt/miniconda3/envs/NAME (built offline by `dgm bench env build`).
conda() {
  case "$1" in
    activate) . "/opt/miniconda3/envs/${2:-testbed}/bin/activate" ;;
    deactivate) deactivate ;;
    *) echo "conda $1: not available in dgm's offline environment" >&2; return 1 ;;
  esac
}
"""
REQUIREMENTS = "/opt/dgm-requirements.txt"
TOOLS = "'pip<25' 'setuptools<76' wheel"  # of the conda environments' era: legacy installs still work
APT_INSTALL = "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends"
# The official instance build: only the history up to the base commit stays.
PRUNE = """set -euo pipefail
cd "$1"
branch=$(git symbolic-ref --short HEAD 2>/dev/null || echo main)
git checkout -q -B "$branch" "$2"
git remote remove origin
target=$(git show -s --format=%ct "$2")
for tag in $(git tag -l); do
  if [ "$(git show -s --format=%ct "$tag^{commit}")" -gt "$target" ]; then git tag -d "$tag" >/dev/null; fi
done
for ref in $(git for-each-ref --format='%(refname)' refs/heads); do
  if [ "$ref" != "refs/heads/$branch" ]; then git update-ref -d "$ref"; fi
done
git reflog expire --expire=now --all
git gc -q --prune=now
"""
COMMIT_SETUP = "git -c user.email=setup@swebench.config -c user.name=SWE-bench commit -q --allow-empty -am SWE-bench"
PIP_CONF = f"[global]\nno-index = true\nfind-links = {WHEELS}\n"
LAYOUT = "layers-1"  # the environment layer's own recipe, part of its name
HOST_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8"}


def host_ca_bundle() -> str:
    """The host's CA bundle, as its pip or Python's ssl finds it."""
    import ssl

    for candidate in (
        os.environ.get("PIP_CERT"),
        os.environ.get("SSL_CERT_FILE"),
        ssl.get_default_verify_paths().cafile,
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    raise BenchmarkError("no CA bundle found on the host (set SSL_CERT_FILE) for downloading wheels")


def _run(cmd: list[str], what: str, progress: Progress) -> None:
    progress(what)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=HOST_ENV)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-20:])
        raise BenchmarkError(f"{what} failed (exit {proc.returncode}):\n{tail}")


def base_image(engine, debian: str, progress: Progress, locks: Locks, mirror: str | None = None) -> str:
    """`dgm-swe-base:<release>`: a Debian root of that release with Python, git and a
    compiler, imported once (the debootstrapped folder is not kept: docker's layer is the
    copy bwrap uses too)."""
    name = f"{envlayers.BASE_REPOSITORY}:{debian}"
    with locks(name):
        if not foreign.present(name):
            _base(engine, name, debian, progress, mirror)
    return name


def _base(engine, name: str, debian: str, progress: Progress, mirror: str | None) -> None:
    dest = envlayers.work_root() / f"base-{debian}"  # kept by builds before layers: reused
    if not image.rootfs_ready(dest):
        partial = dest.with_name(dest.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        cmd = ["debootstrap", "--variant=minbase", f"--include={DEBIAN_PACKAGES}", debian, str(partial)]
        _run([*cmd, mirror or image.apt_mirror()], f"debootstrap {debian} (a few minutes, once)", progress)
        (partial / image.COMPLETE_MARKER).write_text(debian + "\n")
        partial.rename(dest)
    image.import_rootfs(engine, dest, name, progress, changes=[f"LABEL {envlayers.KIND}=base"])
    shutil.rmtree(dest)


def _chroot(rootfs: Path, script: str, what: str, progress: Progress, network: bool) -> None:
    """Run `script` with bash in a chroot of `rootfs`: with the host's network, or in a
    network namespace of its own (nothing but loopback)."""
    prefix = [] if network else ["unshare", "--net"]
    _run([*prefix, "chroot", str(rootfs), "/bin/bash", "-euo", "pipefail", "-c", script], what, progress)


def environment_name(row: dict, recipe: Recipe, requirements: str) -> str:
    """The environment image's name: the repository and a hash of everything its layer
    installs, so rows whose specs install the same (the versions of a repository often do)
    share it, as the official harness's environment images are shared."""
    what = [recipe.debian, row["repo"], *recipe.packages, requirements, *recipe.pip_packages,
            *recipe.apt_packages, TOOLS, ACTIVATE, LAYOUT]  # fmt: skip
    digest = hashlib.sha256("\0".join(str(w) for w in what).encode()).hexdigest()[:12]
    slug = re.sub(r"[^a-z0-9_.-]+", "-", row["repo"].replace("/", "__").lower())
    return f"{envlayers.ENV_REPOSITORY}:{slug[:100]}-{digest}"


def environment_image(engine, row: dict, clone: Path, recipe: Recipe, progress: Progress, locks: Locks) -> str:
    """The environment layer: a virtual environment at ENV with the spec's packages, its
    requirements file and pip packages (wheels downloaded with network, installed with
    none, kept for the instances' installs), and the spec's Debian packages."""
    setup_commit = row.get("environment_setup_commit") or row["base_commit"]
    requirements = _requirements(clone, setup_commit, recipe)
    name = environment_name(row, recipe, requirements or "")
    with locks(name):
        if foreign.present(name):
            progress(f"{recipe.instance_id}: on {name} (built before)")
            return name
        return _environment(engine, name, recipe, requirements, progress, locks)


def _environment(engine, name: str, recipe: Recipe, requirements: str | None, progress: Progress, locks: Locks) -> str:
    base = base_image(engine, recipe.debian or "", progress, locks)
    with envlayers.building(engine, base, name.rpartition(":")[2]) as (rootfs, upper):
        (rootfs / "opt/miniconda3/bin").mkdir(parents=True)
        (rootfs / "opt/miniconda3/bin/activate").write_text(ACTIVATE)
        if requirements is not None:
            (rootfs / REQUIREMENTS.lstrip("/")).write_text(requirements + "\n")
        if recipe.apt_packages:
            apt = " ".join(recipe.apt_packages)
            _network_step(rootfs, f"apt-get update -qq && {APT_INSTALL} {apt} && apt-get clean",
                          f"{name}: apt-get install {apt}", progress)  # fmt: skip
        steps = [_quoted(recipe.packages), f"-r {REQUIREMENTS}" if requirements is not None else "",
                 _quoted(recipe.pip_packages)]  # fmt: skip
        _network_step(
            rootfs,
            f"python3 -m venv {ENV} && . {ENV}/bin/activate && mkdir -p {WHEELS}"
            f" && python -m pip download -q -d {WHEELS} {TOOLS}"
            + "".join(f" && python -m pip wheel -q --wheel-dir {WHEELS} {step}" for step in steps if step),
            f"{name}: downloading wheels",
            progress,
        )
        (rootfs / ENV.lstrip("/") / "pip.conf").write_text(PIP_CONF)
        _chroot(
            rootfs,
            f". {ENV}/bin/activate && python -m pip install -q -U {TOOLS}"
            + "".join(f" && python -m pip install -q {step}" for step in steps if step)
            + f" && rm -f {REQUIREMENTS}",
            f"{name}: installing offline",
            progress,
            network=False,
        )
    return envlayers.finish(engine, base, upper, name, {envlayers.KIND: "environment"})


def build(row: dict, clone: Path, recipe: Recipe, env: Environment, progress: Progress, locks: Locks) -> str:
    """Build the instance's image on its environment's; returns its name (env.offline_image)."""
    if not recipe.buildable:
        raise BenchmarkError(f"{recipe.instance_id} cannot be built offline: {recipe.reason}")
    engine = foreign.client()
    parent = environment_image(engine, row, clone, recipe, progress, locks)
    iid = recipe.instance_id
    with envlayers.building(engine, parent, iid.lower()) as (rootfs, upper):
        testbed = rootfs / "testbed"
        _run(["git", "clone", "-q", "--no-checkout", str(clone), str(testbed)], f"{iid}: cloning", progress)
        _run(["bash", "-c", PRUNE, "prune", str(testbed), row["base_commit"]], f"{iid}: history to the base", progress)
        shared = set(os.listdir(rootfs / WHEELS.lstrip("/")))
        activate = ". /opt/miniconda3/bin/activate && conda activate testbed && cd /testbed"
        # with network: pip's own configuration (offline, the environment's wheels) set aside
        wheel = f"PIP_CONFIG_FILE=/dev/null python -m pip wheel -q --find-links {WHEELS} --wheel-dir {WHEELS}"
        fetch = recipe.install.replace("python -m pip install", wheel).replace("pip install", wheel)
        fetch = fetch.replace(" -e ", " ") if wheel in fetch else f"{wheel} ."
        requires = _quoted(_build_requires(testbed))
        _network_step(
            rootfs,
            activate
            + "".join(f" && {step}" for step in recipe.pre_install)
            + (f" && {wheel} {requires}" if requires else "")
            + f" && {fetch}",
            f"{iid}: set-up steps and wheels",
            progress,
        )
        _chroot(rootfs, f"{activate} && {recipe.install} && {COMMIT_SETUP}", f"{iid}: installing offline",
                progress, network=False)  # fmt: skip
    for name in os.listdir(upper / WHEELS.lstrip("/")) if (upper / WHEELS.lstrip("/")).is_dir() else ():
        if name in shared:  # saved again though the environment has it: the environment's shows through
            (upper / WHEELS.lstrip("/") / name).unlink()
    return envlayers.finish(engine, parent, upper, env.offline_image, {envlayers.KIND: "instance"})


def _quoted(items: tuple[str, ...] | list[str]) -> str:
    return " ".join(shlex.quote(item) for item in items)


def _network_step(rootfs: Path, script: str, what: str, progress: Progress) -> None:
    """A step that downloads: the host's resolver and CA bundle are lent for it only."""
    resolv, ca = rootfs / "etc/resolv.conf", rootfs / HOST_CA.lstrip("/")
    shutil.copy("/etc/resolv.conf", resolv)
    shutil.copy(host_ca_bundle(), ca)  # the CAs the host trusts (a proxy's too)
    try:
        _chroot(rootfs, f"export PIP_CERT={HOST_CA} && {script}", f"{what} (with network)", progress, network=True)
    finally:
        resolv.write_text("")
        ca.unlink()


def _requirements(clone: Path, commit: str, recipe: Recipe) -> str | None:
    """The spec's requirements file as of the environment's commit, cleaned as the official
    build cleans it; None when the spec names none."""
    if not recipe.requirement_files:
        return None

    def read(path: str) -> str | None:
        proc = subprocess.run(["git", "-C", str(clone), "show", f"{commit}:{path}"], capture_output=True, text=True)
        return proc.stdout if proc.returncode == 0 else None

    found = next((path for path in recipe.requirement_files if read(path) is not None), None)
    if found is None:
        raise BenchmarkError(f"{recipe.instance_id}: none of {', '.join(recipe.requirement_files)} at {commit}")
    return requirements_text(read, found)


def _build_requires(project: Path) -> list[str]:
    """What the project's pyproject.toml says building it needs (read on the host)."""
    import tomllib

    path = project / "pyproject.toml"
    if not path.is_file():
        return []
    try:
        return list(tomllib.loads(path.read_text()).get("build-system", {}).get("requires", []))
    except tomllib.TOMLDecodeError as exc:
        raise BenchmarkError(f"{path}: not valid TOML ({exc})") from exc


def publish(rootfs: Path, name: str, progress: Progress) -> str:
    """`docker import` a whole root as `name` (one layer, which bwrap also runs from)."""
    engine = foreign.client()
    replaced = foreign.image_id(engine, name) if foreign.present(name) else None
    image.import_rootfs(engine, rootfs, name, progress)
    if replaced and replaced != foreign.image_id(engine, name):
        envlayers.forget(engine, replaced)
    return name
