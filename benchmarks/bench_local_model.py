"""The embedded model's decoding speed, quiet and under the load a run puts beside it, for
each thread setting: 1 thread, every core, and the default (`auto`: the cores this process
gets, cores.py). Same GGUF, one prompt, tokens streamed until --tokens or --seconds.

    .venv/bin/python benchmarks/bench_local_model.py [--tokens 96] [--seconds 40]

Loads (each started before the model, stopped after):
  quiet     nothing else (run it on an otherwise idle machine);
  busy      `python3 -c 'while True: pass'` in a session of its own, nice 0 (a job in
            another terminal; with autogroups, niced or not makes no difference there);
  niced     the same loop at nice 19 in this session (a niced job started beside the run:
            it yields, so every core is the model's);
  sandbox   pytest running a CPU-bound test over and over in a bwrap sandbox, as grading does
            (at the sandboxes' low CPU weight).
Prints a table: tokens/s per setting and load, loaded/quiet, and how far each setting is
below the best one under the same load."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dgm import model
from dgm.gateway import cores
from dgm.gateway.local_model import LocalUpstream

PROMPT = "Write a Python function that returns the n-th Fibonacci number, with a docstring and a short explanation."
BUSY = "while True: pass"
PYTEST_LOOP = (
    "mkdir -p /tmp/t && cd /tmp/t && printf 'def test_work():\\n    assert sum(i*i for i in range(3_000_000))\\n'"
    " > test_w.py && while true; do python3 -m pytest -q -p no:cacheprovider test_w.py >/dev/null 2>&1; done"
)


@contextmanager
def load(kind: str):
    if kind == "quiet":
        yield
    elif kind in ("busy", "niced"):
        how = {"start_new_session": True} if kind == "busy" else {"preexec_fn": lambda: os.nice(19)}
        proc = subprocess.Popen([sys.executable, "-c", BUSY], **how)
        try:
            time.sleep(0.5)
            yield
        finally:
            proc.kill()
            proc.wait()
    else:
        from sandbox import SandboxSpec, get_backend

        with get_backend("bwrap").start(SandboxSpec()) as session:
            runner = threading.Thread(target=session.exec, args=(PYTEST_LOOP,), kwargs={"timeout": 3600}, daemon=True)
            runner.start()
            time.sleep(2)
            yield
            session.close()  # ends the loop


def decode_rate(setting: str, tokens: int, seconds: float) -> tuple[int, float]:
    """(threads used, decoded tokens/s) of one streamed reply."""
    upstream = LocalUpstream(threads=None if setting == "auto" else int(setting), slots=1)
    upstream.server.handle_chat_completions({"messages": [{"role": "user", "content": "hi"}], "max_tokens": 2})
    got: list[float] = []

    def on_chunk(_chunk) -> bool:
        got.append(time.monotonic())
        return len(got) > tokens or got[-1] - got[0] > seconds  # True: stop decoding

    body = {"messages": [{"role": "user", "content": PROMPT}], "max_tokens": tokens + 2, "temperature": 0}
    upstream.server.handle_chat_completions({**body, "stream": True, "ignore_eos": True}, on_chunk)
    threads = upstream.threads
    upstream.close()  # the server and its threads go before the next setting loads
    return threads, (len(got) - 2) / (got[-1] - got[1])  # from the first token decoded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=96, help="tokens decoded per measurement")
    parser.add_argument("--seconds", type=float, default=40, help="stop a measurement after this long")
    parser.add_argument("--loads", default="quiet,busy,niced,sandbox", help="which loads, comma-separated")
    args = parser.parse_args()
    if not model.model_path().exists():
        raise SystemExit("no model: run `dgm model install` first")
    settings = ["1", str(cores.machine_cores()), "auto"]
    loads = args.loads.split(",")
    rate: dict[tuple[str, str], tuple[int, float]] = {}
    for kind in loads:
        with load(kind):
            for setting in settings:
                rate[setting, kind] = decode_rate(setting, args.tokens, args.seconds)
                print(f"{kind:8} threads={setting:5} -> {rate[setting, kind][1]:5.1f} tokens/s", file=sys.stderr)
    print("| threads | " + " | ".join(f"{k} tok/s" for k in loads) + " | loaded/quiet | below the best |")
    print("|---" * (len(loads) + 3) + "|")
    for setting in settings:
        used = {k: f" ({rate[setting, k][0]}t)" if setting == "auto" else "" for k in loads}
        cells = [f"{rate[setting, k][1]:.1f}{used[k]}" for k in loads]
        ratio = " / ".join(f"{rate[setting, k][1] / rate[setting, 'quiet'][1]:.2f}" for k in loads if k != "quiet")
        below = " / ".join(f"{1 - rate[setting, k][1] / max(rate[s, k][1] for s in settings):.0%}" for k in loads)
        print(f"| {setting}{' (default)' if setting == 'auto' else ''} | {' | '.join(cells)} | {ratio} | {below} |")


if __name__ == "__main__":
    main()
