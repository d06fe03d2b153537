"""The embedded model's speed: tokens/s at 1 and 2 threads, for 1 and 2 requests at once,
on today's runtime (xllamacpp: llama.cpp's server, one slot per request, continuous
batching) and, when it is installed, the old one (llama-cpp-python's `Llama` behind a lock,
one call at a time, as dgm ran it before). Same GGUF, one short prompt, a fixed number of
tokens out (end of text ignored), end to end.

    .venv/bin/python benchmarks/bench_local_model.py [--tokens 200]

Run it on a quiet machine: the figures are the machine's spare cores, nothing else. The
last line is the aggregate tokens/s of each setting and the new/old ratio where both ran."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dgm import model  # noqa: E402
from dgm.gateway.local_model import LocalUpstream  # noqa: E402

PROMPT = "Write a Python function that returns the n-th Fibonacci number, with a docstring and a short explanation."


def request(tokens: int) -> dict:
    return {"messages": [{"role": "user", "content": PROMPT}], "max_tokens": tokens, "temperature": 0}


def new_runtime(threads: int, jobs: int, tokens: int) -> tuple[float, float]:
    """(load seconds, aggregate tokens/s) of `jobs` concurrent requests on xllamacpp."""
    upstream = LocalUpstream(threads=threads, slots=jobs)
    body = {**request(tokens), "ignore_eos": True}
    upstream.complete(request(8), 60)  # warm-up
    start = time.monotonic()
    with ThreadPoolExecutor(jobs) as pool:
        outs = list(pool.map(lambda _: upstream.server.handle_chat_completions(body), range(jobs)))
    seconds = time.monotonic() - start
    return upstream.load_seconds, sum(o["usage"]["completion_tokens"] for o in outs) / seconds


def old_runtime(threads: int, jobs: int, tokens: int) -> tuple[float, float]:
    """The same on llama-cpp-python, one call at a time behind a lock (its Llama is not re-entrant)."""
    from llama_cpp import Llama

    start = time.monotonic()
    llm = Llama(model_path=str(model.model_path()), n_ctx=8192, n_threads=threads, verbose=False)
    load = time.monotonic() - start
    lock = threading.Lock()

    def one(_: int) -> int:
        with lock:
            out = llm.create_chat_completion(**request(tokens))
        return out["usage"]["completion_tokens"]

    one(0)  # warm-up
    start = time.monotonic()
    with ThreadPoolExecutor(jobs) as pool:
        produced = sum(pool.map(one, range(jobs)))
    return load, produced / (time.monotonic() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=200, help="tokens generated per request")
    args = parser.parse_args()
    if not model.model_path().exists():
        raise SystemExit("no model: run `dgm model install` first")
    runtimes = {"xllamacpp": new_runtime}
    if importlib.util.find_spec("llama_cpp") is not None:
        runtimes["llama-cpp-python"] = old_runtime
    figures: dict[tuple[str, int, int], float] = {}
    for name, measure in runtimes.items():
        for threads in (1, 2):
            for jobs in (1, 2):
                load, rate = measure(threads, jobs, args.tokens)
                figures[name, threads, jobs] = rate
                line = f"{name:17} threads={threads} jobs={jobs}: {rate:5.1f} tokens/s (load {load:.1f}s)"
                print(line, file=sys.stderr, flush=True)
    parts = []
    for (name, threads, jobs), rate in figures.items():
        old = figures.get(("llama-cpp-python", threads, jobs))
        ratio = f" ({rate / old:.2f}x)" if old and name == "xllamacpp" else ""
        parts.append(f"{name} {threads}t/{jobs}j {rate:.1f}{ratio}")
    print("tokens/s: " + "; ".join(parts))


if __name__ == "__main__":
    main()
