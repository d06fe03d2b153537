"""Bounds on the gap closed under the metaproductivity-performance mismatch (issue 21).

On one landscape (default: corr -0.8, hgm, 800 evaluations, seeds 0-29) it runs, per seed:

- the reference selectors: random, cmp_thompson, lineage and the oracle (skill + m);
- `skill oracle`: parents by the exact hidden skill (no m), under hgm's n ** alpha;
- `noisy oracle`: the oracle, with each agent's skill + m seen through a fixed error of
  sd `--noise` (about what 50 Bernoulli results measure a skill to);
- `lineage` given more evaluations (`--more`);
- `completed`: after lineage's run, every valid agent in its archive is evaluated on all
  the tasks it lacks (evaluations beyond the budget), and the best is taken by its own
  resolve rate and by the lineage filter's skill estimate. No pick from that archive by
  any rule using only results can do much better than these.

Each row is the final pick's mean hidden skill and its share of the random-to-oracle gap;
the first line gives the skill that 0.6 of the gap needs. With `--dgm-blocks B` it also
runs dgm mode (default landscape) over B blocks of `--seeds` seeds and prints, per block,
the median budget until the final pick reaches the target for `lineage` and DGM's rule.

    .venv/bin/python benchmarks/bench_gap_bounds.py [--seeds 30] [--budget 800] [--corr -0.8]
        [--noise 0.05] [--more 1200,1600] [--dgm-blocks 5]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import random
import statistics

from dgm.engine.selectors import LineageSelector
from dgm.simulate.compare import compare, gap_closed, mean_interval
from dgm.simulate.landscape import Landscape, World
from dgm.simulate.oracle import OracleSelector
from dgm.simulate.run import Run, Settings


def skill_oracle(world: World) -> OracleSelector:
    """Parents by the exact hidden skill: what a selector that knew every agent's skill,
    but nothing of metaproductivity, would do."""
    return OracleSelector(world, value=lambda i: world.agents[i].skill)


def noisy_oracle(world: World, noise: float, seed: int) -> OracleSelector:
    """The oracle's skill + m, seen through a fixed per-agent error of sd `noise`."""
    rng, error = random.Random(f"noisy-oracle:{seed}"), {}

    def seen(i: int) -> float:
        if i not in error:
            error[i] = rng.gauss(0, noise)
        return world.agents[i].skill + world.m(i) + error[i]

    return OracleSelector(world, value=seen)


def _bounds(args: tuple) -> dict[str, float]:
    """One seed's bound rows."""
    landscape, seed, budget, noise, more = args
    out = {
        "skill oracle": Run(landscape, skill_oracle, seed).run(budget).final_skill,
        "noisy oracle": Run(landscape, lambda w: noisy_oracle(w, noise, seed), seed).run(budget).final_skill,
    }
    for extra in more:
        out[f"lineage at {extra:g}"] = Run(landscape, "lineage", seed).run(extra).final_skill
    lineage = LineageSelector()
    run = Run(landscape, lambda _w: lineage, seed)
    out["lineage"] = run.run(budget).final_skill  # the reference row, before the completion
    world, cache = run.world, run.cache
    valid = [i for i, n in cache.nodes.items() if n.status == "valid"]
    for i in valid:
        for task in world.tasks:
            if task not in cache.nodes[i].evaluated:
                cache.add_result(i, task, world.evaluate(i, task))
    lineage.model.update(cache.view())
    by_rate = max(valid, key=lambda i: (cache.nodes[i].mean, -i))
    by_model = max(valid, key=lambda i: (lineage.model.mean_p[lineage.model.row[i]], -i))
    out["completed, by own rate"] = world.agents[by_rate].skill
    out["completed, by lineage's estimate"] = world.agents[by_model].skill
    out["best valid in archive"] = max(world.agents[i].skill for i in valid)
    return out


def _mean_ci(values: list[float]) -> str:
    lo, hi = mean_interval(values)
    return f"{statistics.fmean(values):.3f} ({lo:.3f}-{hi:.3f})"


def bounds(args: argparse.Namespace) -> None:
    landscape = Landscape(corr=args.corr)
    ref = compare(landscape, ["random", "cmp_thompson", "oracle"], args.budget, args.seeds)
    finals = {r: [x.final_skill for x in runs] for r, runs in ref.runs.items()}
    low, high = statistics.fmean(finals["random"]), statistics.fmean(finals["oracle"])
    print(
        f"corr {args.corr:g}, hgm, {args.budget:g} evaluations, seeds 0-{args.seeds - 1}: random {low:.3f}, "
        f"oracle {high:.3f}; 0.6 of the gap needs {low + 0.6 * (high - low):.3f}"
    )
    more = tuple(float(x) for x in args.more.split(",") if x)
    jobs = [(landscape, seed, args.budget, args.noise, more) for seed in range(args.seeds)]
    with concurrent.futures.ProcessPoolExecutor() as pool:
        per_seed = list(pool.map(_bounds, jobs))
    rows = {**finals}
    for name in per_seed[0]:
        rows[name] = [s[name] for s in per_seed]
    print(f"{'row':34} {'final skill (95% interval)':27} gap closed")
    for name, values in rows.items():
        gap = gap_closed(values, finals["random"], finals["oracle"])
        shown = f"{gap[0]:.2f} ({gap[1]:.2f}-{gap[2]:.2f})" if gap else "-"
        print(f"{name:34} {_mean_ci(values):27} {shown}")


def dgm_blocks(args: argparse.Namespace) -> None:
    seeds = args.seeds * args.dgm_blocks
    c = compare(Landscape(), ["score_child_prop", "lineage"], args.budget, seeds, Settings(mode="dgm"))
    hits = {s: [math.inf if r.budget_to_target is None else r.budget_to_target for r in rs] for s, rs in c.runs.items()}
    print(f"dgm mode, default landscape: median budget to target per block of {args.seeds} seeds")
    wins = 0
    for b in range(args.dgm_blocks):
        part = slice(b * args.seeds, (b + 1) * args.seeds)
        mine, theirs = statistics.median(hits["lineage"][part]), statistics.median(hits["score_child_prop"][part])
        wins += mine <= theirs
        print(f"  seeds {part.start}-{part.stop - 1}: lineage {mine:g}, score_child_prop {theirs:g}")
    print(f"lineage at most score_child_prop in {wins} of {args.dgm_blocks} blocks")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=30, help="seeds per run set (and per dgm block)")
    parser.add_argument("--budget", type=float, default=800, help="evaluations per run")
    parser.add_argument("--corr", type=float, default=-0.8, help="the landscape's p-m correlation")
    parser.add_argument("--noise", type=float, default=0.05, help="the noisy oracle's error sd")
    parser.add_argument("--more", default="1200,1600", help="larger budgets for lineage, comma-separated")
    parser.add_argument("--dgm-blocks", type=int, default=0, help="dgm blocks of --seeds seeds (0: none)")
    args = parser.parse_args()
    bounds(args)
    if args.dgm_blocks:
        dgm_blocks(args)


if __name__ == "__main__":
    main()
