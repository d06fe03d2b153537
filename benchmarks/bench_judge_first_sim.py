"""Judge-first staging on `dgm simulate`: the budget it saves (or costs) with a noisy judge.

The landscape's judge reviews a new agent's first patch; its score's logit is
judge_corr * logit(chance) + judge_noise * N(0, 1), and a review costs judge_cost of an
evaluation. For judges from good to blind and for gates T, cmp_thompson in hgm mode runs
with and without `--judge-first T` on the same seeds. Budget is the simulator's unit: one
evaluation (a solve and its grading); an expansion costs one, a review judge_cost.

Reported per row: the final pick's hidden skill at the end (mean), the median budget until
the final pick first reaches the target skill (a run that never does counts as past the
end), the saving against no gate (1 - with/without on that median) with a 95% bootstrap
interval over seeds, and the agents gated per run. A gate changes which agents exist, so
runs with and without it diverge at the first gated agent: the interval is unpaired.

    .venv/bin/python benchmarks/bench_judge_first_sim.py [--seeds 100] [--budget 800]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics

from dgm.simulate.compare import compare
from dgm.simulate.landscape import Landscape
from dgm.simulate.run import Settings

JUDGES = {"good": (0.9, 0.5), "default": (0.7, 1.0), "poor": (0.3, 1.5), "blind": (0.0, 1.0)}
GATES = (0.1, 0.2, 0.3)


def hits(landscape: Landscape, args, gate: float | None) -> tuple[dict, list[float]]:
    c = compare(landscape, [args.selector], args.budget, args.seeds, Settings(judge_first=gate))
    runs = c.runs[args.selector]
    return c.results[0], [math.inf if r.budget_to_target is None else r.budget_to_target for r in runs]


def saving(plain: list[float], gated: list[float]) -> tuple[float, float, float]:
    """1 - median(gated) / median(plain), and its 95% bootstrap interval."""
    rng = random.Random(0)

    def one(a: list[float], b: list[float]) -> float:
        ma, mb = statistics.median(a), statistics.median(b)
        return 1 - mb / ma if math.isfinite(ma) else (math.nan if math.isinf(mb) else 1.0)

    draws = sorted(one(rng.choices(plain, k=len(plain)), rng.choices(gated, k=len(gated))) for _ in range(2000))
    return one(plain, gated), draws[50], draws[1949]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--budget", type=float, default=800)
    parser.add_argument("--selector", default="cmp_thompson")
    parser.add_argument("--corr", type=float, default=0.0, help="the landscape's p-m correlation")
    args = parser.parse_args()
    base = Landscape(corr=args.corr)
    plain, plain_hits = hits(base, args, None)
    print(f"landscape {dataclasses.asdict(base)}; {args.selector}, budget {args.budget:g}, {args.seeds} seeds")
    print("| judge (corr, noise) | gate | final skill | budget to target | saving (95% interval) | gated per run |")
    print("|---|---|---|---|---|---|")
    print(f"| none | off | {plain['final_skill_mean']:.3f} | {statistics.median(plain_hits):g} | - | 0 |")
    for name, (corr, noise) in JUDGES.items():
        for gate in GATES:
            r, gated_hits = hits(dataclasses.replace(base, judge_corr=corr, judge_noise=noise), args, gate)
            point, lo, hi = saving(plain_hits, gated_hits)
            print(
                f"| {name} ({corr:g}, {noise:g}) | {gate:g} | {r['final_skill_mean']:.3f} | "
                f"{statistics.median(gated_hits):g} | {point:+.0%} ({lo:+.0%} to {hi:+.0%}) | {r['gated_mean']:.1f} |"
            )


if __name__ == "__main__":
    main()
