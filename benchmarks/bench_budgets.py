"""How far concurrent greedy agents get past a budget (the overshoot; negative = under).

Threads hammer the real gateway (openai client over its Unix socket) until refused; the
SCRIPTED upstream (the test double) claims 52 million completion tokens per call, so only
the gateway's clamp (500) and its holds keep the spend in bounds. Two scenarios:
tokens (12 threads on 3 jobs of 4,000 tokens, run budget 9,000) and dollars (8 threads on
2 jobs, run budget $0.05 at $2/$8 per million).

    .venv/bin/python benchmarks/bench_budgets.py [--repeats N]

The last line: token_overshoot=X dollar_overshoot=Y (the worst over the repeats)
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from dgm.gateway import Budget, Gateway, Limits, Prices
from dgm.gateway.probe import call_until_refused
from dgm.gateway.scripted import ScriptedUpstream

CLAMP = 500
GREEDY = {"rules": [{"when": {}, "reply": {"content": "x" * 400_000, "usage": {"completion_tokens": 52_000_000}}}]}


def scenario(run_budget: Budget, job_budget: Budget, jobs: int, threads: int, prices: Prices) -> tuple[int, float]:
    with tempfile.TemporaryDirectory() as tmp:
        gw = Gateway(
            ScriptedUpstream(GREEDY), Path(tmp) / "a.db", run_budget=run_budget, prices=prices,
            limits=Limits(max_call_tokens=CLAMP),
        ).start()  # fmt: skip
        try:
            with gw.archive_lock:
                ids = [gw.archive.jobs.enqueue("evaluate", {}).id for _ in range(jobs)]
            call_until_refused(gw, [gw.issue_token(job_id=j, budget=job_budget) for j in ids], threads)
            calls = gw.archive.fm_calls()
            return sum(c.prompt_tokens + c.completion_tokens for c in calls), sum(c.cost_usd for c in calls)
        finally:
            gw.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    worst_tokens, worst_usd = -(10**9), -1e9
    for rep in range(args.repeats):
        tokens, _ = scenario(Budget(tokens=9_000), Budget(tokens=4_000), 3, 4, Prices())
        _, usd = scenario(Budget(usd=0.05), Budget(), 2, 4, Prices({"scripted": (2.0, 8.0)}))
        print(f"repeat {rep}: tokens {tokens}/9000 ({tokens - 9000:+d}), dollars ${usd:.6f}/$0.05 ({usd - 0.05:+.6f})")
        worst_tokens, worst_usd = max(worst_tokens, tokens - 9000), max(worst_usd, usd - 0.05)
    print(f"token_overshoot={worst_tokens} dollar_overshoot={worst_usd:+.6f}")


if __name__ == "__main__":
    main()
