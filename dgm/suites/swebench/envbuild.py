"""`dgm bench env build`: equivalents of SWE-bench's per-instance images, built without a
container registry, so the official route runs offline.

Per instance: a Debian root with the spec's Python (debootstrapped once per release), the
repository at its base commit in /testbed with its history, and a virtual environment at
/opt/miniconda3/envs/testbed behind a stand-in for conda's `activate`, so the row's eval
script (`source /opt/miniconda3/bin/activate; conda activate testbed`) runs unchanged.
Wheels are downloaded on the host (in a chroot of that root, which shares the host's
network); the install itself runs with no network, from those wheels only. The wheels stay
in the image and the environment's pip is pointed at them, so an eval script's own
`pip install -e .` works offline as it would online.

The result is `docker import`ed as dgm-env/<the official image's name>, and its root is
kept as the bwrap rootfs of that image."""

from __future__ import annotations

import logging
import os
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from sandbox import foreign, image

from ..task import BenchmarkError, Environment
from .specs import Recipe, requirements_text

log = logging.getLogger(__name__)
Progress = Callable[[str], None]

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


def root() -> Path:
    return image.dgm_home() / "swe-env"


def base_rootfs(debian: str, progress: Progress, mirror: str | None = None) -> Path:
    """A Debian root of that release with Python, git and a compiler; made once."""
    dest = root() / f"base-{debian}"
    if image.rootfs_ready(dest):
        return dest
    partial = dest.with_name(dest.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    cmd = ["debootstrap", "--variant=minbase", f"--include={DEBIAN_PACKAGES}", debian, str(partial)]
    _run([*cmd, mirror or image.apt_mirror()], f"debootstrap {debian} (a few minutes, once)", progress)
    (partial / image.COMPLETE_MARKER).write_text(debian + "\n")
    partial.rename(dest)
    return dest


def _chroot(rootfs: Path, script: str, what: str, progress: Progress, network: bool) -> None:
    """Run `script` with bash in a chroot of `rootfs`: with the host's network, or in a
    network namespace of its own (nothing but loopback)."""
    prefix = [] if network else ["unshare", "--net"]
    _run([*prefix, "chroot", str(rootfs), "/bin/bash", "-euo", "pipefail", "-c", script], what, progress)


def build(row: dict, clone: Path, recipe: Recipe, env: Environment, progress: Progress) -> str:
    """Build the instance's image; returns its name (env.offline_image)."""
    if not recipe.buildable:
        raise BenchmarkError(f"{recipe.instance_id} cannot be built offline: {recipe.reason}")
    base = base_rootfs(recipe.debian, progress)
    work = root() / "build" / recipe.instance_id
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    rootfs = work / "rootfs"
    _run(["cp", "-a", "--reflink=auto", str(base), str(rootfs)], f"{recipe.instance_id}: copying the base", progress)
    (rootfs / image.COMPLETE_MARKER).unlink()
    testbed = rootfs / "testbed"
    _run(["git", "clone", "-q", "--no-checkout", str(clone), str(testbed)], "cloning the repository", progress)
    _run(["bash", "-c", PRUNE, "prune", str(testbed), row["base_commit"]], "history up to the base commit", progress)
    (rootfs / "opt/miniconda3/bin").mkdir(parents=True)
    (rootfs / "opt/miniconda3/bin/activate").write_text(ACTIVATE)
    setup_commit = row.get("environment_setup_commit") or row["base_commit"]
    has_reqs = _write_requirements(clone, setup_commit, recipe, rootfs / REQUIREMENTS.lstrip("/"))
    if recipe.apt_packages:
        apt = " ".join(recipe.apt_packages)
        _network_step(rootfs, f"apt-get update -qq && {APT_INSTALL} {apt}", f"apt-get install {apt}", progress)
    steps = [_quoted(recipe.packages), f"-r {REQUIREMENTS}" if has_reqs else "", _quoted(recipe.pip_packages)]
    fetch = recipe.install.replace("pip install", f"pip wheel -q --wheel-dir {WHEELS}").replace(" -e ", " ")
    if "pip wheel" not in fetch:
        fetch = f"python -m pip wheel -q --wheel-dir {WHEELS} ."
    build_requires = _quoted(_build_requires(testbed))
    _network_step(
        rootfs,
        f"python3 -m venv {ENV} && . {ENV}/bin/activate && mkdir -p {WHEELS} && cd /testbed"
        f" && python -m pip download -q -d {WHEELS} {TOOLS} {build_requires}"
        f" && python -m pip install -q --no-index --find-links {WHEELS} -U {TOOLS}"
        + "".join(f" && python -m pip wheel -q --wheel-dir {WHEELS} {step}" for step in steps if step)
        + f" && {fetch}",
        f"{recipe.instance_id}: downloading wheels",
        progress,
    )
    (rootfs / ENV.lstrip("/") / "pip.conf").write_text(PIP_CONF)
    _chroot(
        rootfs,
        ". /opt/miniconda3/bin/activate && conda activate testbed && cd /testbed"
        + "".join(f" && python -m pip install -q {step}" for step in steps if step)
        + f" && {recipe.install} && rm -f {REQUIREMENTS} && {COMMIT_SETUP}",
        f"{recipe.instance_id}: installing offline",
        progress,
        network=False,
    )
    name = publish(rootfs, env.offline_image, progress)
    shutil.rmtree(work)
    return name


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


def _write_requirements(clone: Path, commit: str, recipe: Recipe, dest: Path) -> bool:
    """The spec's requirements file as of the environment's commit, cleaned as the official
    build cleans it; False when the spec names none."""
    if not recipe.requirement_files:
        return False

    def read(path: str) -> str | None:
        proc = subprocess.run(["git", "-C", str(clone), "show", f"{commit}:{path}"], capture_output=True, text=True)
        return proc.stdout if proc.returncode == 0 else None

    found = next((path for path in recipe.requirement_files if read(path) is not None), None)
    if found is None:
        raise BenchmarkError(f"{recipe.instance_id}: none of {', '.join(recipe.requirement_files)} at {commit}")
    dest.write_text(requirements_text(read, found) + "\n")
    return True


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
    """`docker import` the root as `name`, and keep it as that image's bwrap rootfs."""
    engine = foreign.client()
    replaced = foreign.image_id(engine, name) if foreign.present(name) else None
    image.import_rootfs(engine, rootfs, name, progress)
    dest = foreign.cached_rootfs(foreign.image_id(engine, name))
    shutil.rmtree(dest, ignore_errors=True)
    (rootfs / image.COMPLETE_MARKER).write_text(name + "\n")
    rootfs.rename(dest)
    if replaced and replaced != foreign.image_id(engine, name):
        shutil.rmtree(foreign.cached_rootfs(replaced), ignore_errors=True)  # the rootfs of the image replaced
    return name


def build_rows(path: Path, repos: Path, progress: Progress, only: tuple[str, ...] = (), force: bool = False):
    """Build every row's image (or the `only` ones); yields (instance_id, image or None, why not)."""
    from ..loaders.swebench import environment, find_clone, read_rows
    from .specs import recipe

    for row in read_rows(path):
        if only and row["instance_id"] not in only:
            continue
        env = environment(row) or Environment(f"swebench/sweb.eval.x86_64.{row['instance_id'].lower()}:latest")
        plan = recipe(row)
        if not plan.buildable:
            yield row["instance_id"], None, plan.reason
            continue
        if foreign.present(env.offline_image) and not force:
            yield row["instance_id"], env.offline_image, None
            continue
        try:
            yield row["instance_id"], build(row, find_clone(repos, row["repo"]), plan, env, progress), None
        except BenchmarkError as exc:
            yield row["instance_id"], None, str(exc)
