"""SWE-bench environments at scale: build time with 1 and 2 workers, the disk the layers
take (docker and bwrap together, measured on disk), and grading time per instance on each
backend. Needs root, docker and local clones of the rows' repositories:

    git clone -q ../shared/benchmarks/swebench-dev/marshmallow.bundle /tmp/swe-repos/marshmallow-code__marshmallow
    .venv/bin/python benchmarks/bench_swe_env.py ../shared/benchmarks/swebench-dev/instances.jsonl \\
        --repos /tmp/swe-repos --from-scratch

`--from-scratch` first removes every image `dgm bench env build` made (`dgm bench env prune
--all`), so the first build includes the Debian base and the environments; later builds
(`--force`) rebuild the instances on them. `--load N` keeps N busy-looping processes beside
the builds and gradings, as a run's other work would."""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _burn() -> None:
    while True:
        pass


def _dgm(*args: str) -> tuple[float, str]:
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "dgm", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"dgm {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return time.monotonic() - start, proc.stdout


def _on_disk(names: list[str]) -> tuple[int, int]:
    """(bytes of every distinct layer folder under the images, bytes of dgm's unpacked
    copies of them): what docker and bwrap take together, measured with du."""
    from sandbox import foreign, image, layers

    engine = foreign.client()
    folders = set()
    for name in names:
        found = layers.of_image(engine.images.get(name).attrs)
        folders |= set(found.dirs) if found else set()
    du = lambda paths: sum(int(subprocess.check_output(["du", "-sb", str(p)]).split()[0]) for p in paths)  # noqa: E731
    copies = [p for p in (image.dgm_home() / "foreign",) if p.is_dir()]
    return du(folders), du(copies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=Path)
    parser.add_argument("--repos", type=Path, required=True)
    parser.add_argument("--from-scratch", action="store_true")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--backends", nargs="+", default=["bwrap", "docker"])
    parser.add_argument("--load", type=int, default=0)
    opts = parser.parse_args()
    from dgm.suites import Grader, load_suite
    from sandbox import get_backend

    burners = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(opts.load)]
    for burner in burners:
        burner.start()
    figures = []
    if opts.from_scratch:
        _dgm("bench", "env", "prune", "--all")
    for i, workers in enumerate(opts.workers):
        force = ["--force"] if i or not opts.from_scratch else []
        seconds, out = _dgm("bench", "env", "build", str(opts.rows), "--repos", str(opts.repos),
                            "--workers", str(workers), *force)  # fmt: skip
        first = " (with base and environments)" if opts.from_scratch and not i else ""
        figures.append(f"build {workers} worker(s){first}: {seconds:.0f} s")
        summary = [line for line in out.splitlines() if " images present " in line]
        print(*summary, out[out.find("disk:") :], sep="\n", flush=True)
    suite = load_suite(f"swebench:{opts.rows}")
    names = [task.environment.resolved_image() for task in suite.tasks]
    layered, copies = _on_disk(names)
    figures.append(
        f"disk (du): layers {layered / 1e6:.0f} MB for {len(names)} instances, unpacked copies {copies / 1e6:.0f} MB"
    )
    for backend in opts.backends:
        with tempfile.TemporaryDirectory() as cache:
            grader, times, resolved = Grader(get_backend(backend), Path(cache)), [], 0
            for task in suite.tasks:
                verdict = grader.grade(task, task.reference_patch)
                times.append(verdict.duration_s)
                resolved += verdict.resolved
        figures.append(
            f"{backend}: reference resolved {resolved}/{len(times)}, grading median {statistics.median(times):.1f} s"
            f" (min {min(times):.1f}, max {max(times):.1f})"
        )
    print(f"load={opts.load}; " + "; ".join(figures))


if __name__ == "__main__":
    main()
