"""Sandbox overhead per session, per backend, against the bare command in the same run.

Two workloads: a session running `true` (start + exec + close), and a session running
a pytest file that takes about one second. Overhead = median sandboxed time minus median
bare time. The bare pytest runs the image's own python3 and pytest (chroot into the
sandbox rootfs, in a private mount namespace; needs root), so both sides run the same
interpreter and plugins; without root it falls back to this venv's Python.

    .venv/bin/python benchmarks/bench_sandbox.py [--repeat N] [--backends docker,bwrap]

The last line: per backend, true_ms (overhead) and pytest_ms (overhead), and ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sandbox import Mount, SandboxSpec, get_backend, image

PYTEST_FILE = """
import time

def test_takes_one_second():
    time.sleep(1.0)
    assert True
"""


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def bare(cmd: list[str]) -> float:
    return timed(lambda: subprocess.run(cmd, check=True, capture_output=True))


def sandboxed(backend, spec: SandboxSpec, cmd: list[str]) -> float:
    def once() -> None:
        with backend.start(spec) as session:
            result = session.exec(cmd)
            if not result.ok:
                raise RuntimeError(f"{backend.name}: {cmd} failed: {result.stderr[-500:]}")

    return timed(once)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=10, help="sessions per measurement (default 10)")
    parser.add_argument("--backends", default="docker,bwrap", help="comma-separated backends")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dgm-bench-"))
    folder.chmod(0o755)
    (folder / "test_one_second.py").write_text(PYTEST_FILE)
    pytest_args = ["-m", "pytest", "-q", "-p", "no:cacheprovider"]
    rootfs = image.rootfs_dir()
    if os.geteuid() == 0 and image.rootfs_ready(rootfs):
        run = f"python3 {' '.join(pytest_args)} /mnt/test_one_second.py"
        inner = f"mount --bind {folder} {rootfs}/mnt && exec chroot {rootfs} {run}"
        bare_pytest_cmd = ["unshare", "--mount", "sh", "-c", inner]
    else:
        bare_pytest_cmd = [sys.executable, *pytest_args, str(folder / "test_one_second.py")]
    bare_true = statistics.median(bare(["true"]) for _ in range(args.repeat))
    bare_pytest = statistics.median(bare(bare_pytest_cmd) for _ in range(max(3, args.repeat // 2)))
    print(f"bare: true {bare_true * 1000:.1f} ms, pytest {bare_pytest * 1000:.0f} ms", file=sys.stderr)
    summary = []
    spec = SandboxSpec(mounts=(Mount("/bench", folder),))
    for name in args.backends.split(","):
        backend = get_backend(name)
        sandboxed(backend, spec, ["true"])  # warm-up: image cache, first container
        true_s = statistics.median(sandboxed(backend, spec, ["true"]) for _ in range(args.repeat))
        pytest_s = statistics.median(
            sandboxed(backend, spec, ["python3", *pytest_args, "/bench/test_one_second.py"])
            for _ in range(max(3, args.repeat // 2))
        )
        true_ms = (true_s - bare_true) * 1000
        pytest_ms = (pytest_s - bare_pytest) * 1000
        print(
            f"{name}: true session {true_s * 1000:.0f} ms (overhead {true_ms:.0f} ms, x{true_s / bare_true:.0f}); "
            f"pytest session {pytest_s * 1000:.0f} ms (overhead {pytest_ms:.0f} ms, x{pytest_s / bare_pytest:.2f})",
            file=sys.stderr,
        )
        ratio = pytest_s / bare_pytest
        summary.append(f"{name}_true_ms={true_ms:.0f} {name}_pytest_ms={pytest_ms:.0f} {name}_pytest_ratio={ratio:.2f}")
    print(" ".join(summary))


if __name__ == "__main__":
    main()
