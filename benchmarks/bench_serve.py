"""`dgm serve` on a large archive, and beside a running evolution.

    .venv/bin/python benchmarks/bench_serve.py [--nodes 10000] [--runs 3]

1. Builds (once, cached under /tmp) an archive of NODES agents shaped like a long run: a
   random tree, three evaluations per agent with a trajectory and a grading log each, a
   meta-agent trajectory per child, snapshots of 30 files that differ by one edit each.
2. Serves it and measures, in Debian's headless Chromium, the first page load (until the
   whole tree is drawn), then node details through the API (50 random nodes, warm).
3. Runs the same scripted evolution (bwrap, real gateway) RUNS times without and RUNS times
   with `dgm serve` watching it and a poller fetching what the page does 4x as often
   (/api/version, /api/tree, /api/overview, a node every 0.5 s), alternating; prints the
   job throughput of each (jobs per second of wall time) and their ratio.

The last line is JSON with the figures."""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from archive import Archive  # noqa: E402


def build(run: Path, nodes: int, seed: int = 1) -> None:
    """An archive of `nodes` agents (see the module docstring)."""
    rng = random.Random(seed)
    trajectory = "\n".join(
        json.dumps({"step": i, "role": r, "content": f"message {i}: " + "text " * rng.randint(20, 200)})
        for i, r in enumerate(["system", "user"] + ["assistant", "tool"] * 9)
    )
    with tempfile.TemporaryDirectory() as tmp, Archive.for_run(run, create=True, synchronous="OFF") as ar:
        code = Path(tmp)
        for i in range(30):
            (code / f"seed_agent/mod{i}.py").parent.mkdir(parents=True, exist_ok=True)
            (code / f"seed_agent/mod{i}.py").write_text(f"# module {i}\n" + "x = 1\n" * 50)
        ar.save_run_config({"benchmark": "builtin:dev", "mode": "hgm", "final_rule": "quantile"}, seed)
        tasks = [f"task-{t}" for t in range(30)]
        for n in range(1, nodes + 1):
            (code / f"seed_agent/mod{n % 30}.py").write_text(
                f"# module {n % 30}, edited by node {n}\n" + "x = 1\n" * 50
            )
            with ar.atomic():
                snap = ar.add_snapshot(code)
                parent = None if n == 1 else rng.randint(max(1, n - 200), n - 1)
                origin = {"summary": f"diagnosis of node {parent}", "proposal": "edit a module", "job": n}
                if parent is not None:
                    origin["trajectory"] = ar.add_blob(trajectory.encode())
                node = ar.add_node(parent, snap, status="valid" if rng.random() < 0.9 else "invalid", origin=origin)
                for task in rng.sample(tasks, 3):
                    log = json.dumps(
                        {"patch": "", "test_log": "F" * 500, "reason": "tests_failed", "trajectory": trajectory}
                    )
                    ar.add_evaluation(node.id, "builtin:dev", task, rng.random() < 0.3, log=log.encode())
            if n % 1000 == 0:
                print(f"built {n} nodes", file=sys.stderr, flush=True)


def start_serve(run: Path) -> tuple[subprocess.Popen, str]:
    cmd = [str(ROOT / ".venv/bin/dgm"), "serve", "--run", str(run), "--port", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    return proc, line.split(" at ", 1)[1].split()[0]


def get(url: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as r:
        r.read()
    return time.perf_counter() - started


def page_and_details(run: Path, nodes: int) -> dict:
    from playwright.sync_api import sync_playwright

    proc, url = start_serve(run)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=shutil.which("chromium"), args=["--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            started = time.perf_counter()
            page.goto(url)
            page.wait_for_selector(f'body[data-nodes="{nodes}"]', timeout=120_000)
            first_load = time.perf_counter() - started
            started = time.perf_counter()
            page.dispatch_event(f'circle.node[data-id="{nodes // 2}"]', "click")  # a dot too small to aim at
            page.wait_for_selector("#panel pre.diff")
            click = time.perf_counter() - started
            browser.close()
        rng = random.Random(2)
        details = sorted(get(f"{url}api/node/{rng.randint(1, nodes)}") for _ in range(50))
        return {
            "first_page_s": round(first_load, 2),
            "click_to_node_s": round(click, 3),
            "node_api_median_ms": round(statistics.median(details) * 1000, 1),
            "node_api_p95_ms": round(details[int(0.95 * len(details)) - 1] * 1000, 1),
        }
    finally:
        proc.terminate()
        proc.wait()


def evolve(root: Path, name: str, watched: bool) -> float:
    """Jobs per second of one scripted run, with or without serve watching it."""
    from tests.engine.conftest import evolve_cmd, make_engine_env

    tasks, script = (root / "tasks", root / "script.json")
    if not tasks.exists():
        make_engine_env(root)
    run = root / name
    flags = ("--workers", "2", "--max-expansions", "6", "--max-evals", "24", "--seed", "5")
    stop = threading.Event()
    errors: list[str] = []

    def poll() -> None:
        while not (run / "archive.db").exists() and not stop.is_set():
            time.sleep(0.05)
        proc, url = start_serve(run)
        try:
            while not stop.is_set():
                for path in ("api/version", "api/tree", "api/overview", "api/node/1"):
                    try:
                        get(url + path)
                    except urllib.error.HTTPError as exc:
                        if exc.code != 404:  # 404: node 1 is not stored yet
                            errors.append(f"{path}: {exc}")
                    except OSError as exc:
                        errors.append(f"{path}: {exc}")
                stop.wait(0.5)
        finally:
            proc.terminate()
            proc.wait()

    poller = threading.Thread(target=poll) if watched else None
    started = time.perf_counter()
    if poller:
        poller.start()
    subprocess.run(evolve_cmd(run, tasks, f"scripted:{script}", *flags), check=True, capture_output=True)
    elapsed = time.perf_counter() - started
    stop.set()
    if poller:
        poller.join()
    if errors:
        raise SystemExit(f"serve failed while watching: {errors[:3]}")
    with Archive.for_run(run) as ar:
        jobs = ar.jobs.counts()["done"]
    return jobs / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3, help="scripted runs with and without serve (alternating)")
    args = parser.parse_args()
    big = Path(f"/tmp/dgm-bench-serve-{args.nodes}")
    if not (big / "archive.db").exists():
        started = time.perf_counter()
        shutil.rmtree(big, ignore_errors=True)
        build(big, args.nodes)
        print(f"built a {args.nodes}-node archive in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    figures = {"nodes": args.nodes, **page_and_details(big, args.nodes)}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        root.chmod(0o755)
        plain, watched = [], []
        for i in range(args.runs):
            plain.append(evolve(root, f"plain{i}", watched=False))
            watched.append(evolve(root, f"watched{i}", watched=True))
            print(f"run {i}: {plain[-1]:.3f} vs {watched[-1]:.3f} jobs/s", file=sys.stderr, flush=True)
    figures["jobs_per_s_alone"] = round(statistics.median(plain), 3)
    figures["jobs_per_s_served"] = round(statistics.median(watched), 3)
    figures["throughput_ratio"] = round(statistics.median(watched) / statistics.median(plain), 3)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
