"""Simulator throughput, and the selector comparison on three p-m correlations.

Times `dgm simulate --compare random,score_child_prop,cmp_thompson,oracle --budget 800
--seeds 30` (the acceptance command; target under 2 minutes) and prints the comparison
tables for corr = -0.8, 0 and 0.8 in hgm mode and for the default landscape in dgm mode.

    .venv/bin/python benchmarks/bench_simulate.py [--seeds 30] [--budget 800]

The last line: simulate_s=X runs_per_s=Y
"""

from __future__ import annotations

import argparse
import sys
import time

from dgm.simulate.compare import compare, table
from dgm.simulate.landscape import Landscape
from dgm.simulate.run import Settings

SELECTORS = ["random", "best", "score_prop", "score_child_prop", "cmp_thompson", "lineage", "oracle"]
ACCEPTANCE = ["random", "score_child_prop", "cmp_thompson", "oracle"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=30, help="seeds per selector")
    parser.add_argument("--budget", type=float, default=800, help="evaluations per run")
    args = parser.parse_args()
    t0 = time.perf_counter()
    compare(Landscape(), ACCEPTANCE, args.budget, args.seeds)
    seconds = time.perf_counter() - t0
    runs = len(ACCEPTANCE) * args.seeds
    for mode, corr in (("hgm", 0.0), ("hgm", -0.8), ("hgm", 0.8), ("dgm", 0.0)):
        result = compare(Landscape(corr=corr), SELECTORS, args.budget, args.seeds, Settings(mode=mode))
        print("\n".join(table(result)) + "\n", file=sys.stderr)
    print(f"simulate_s={seconds:.1f} runs_per_s={runs / seconds:.1f}")


if __name__ == "__main__":
    main()
