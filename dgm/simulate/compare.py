"""Selectors compared over seeds on one landscape: final skill (mean and 95% interval),
the share of the random-to-oracle gap closed (with a paired bootstrap interval), best
skill in the archive, budget for the final pick to reach a target, and the mean curves."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import math
import os
import random
import statistics
from dataclasses import dataclass
from typing import Any

from .landscape import Landscape
from .run import RunResult, Settings, simulate

BOOTSTRAP = 2000


@dataclass(frozen=True)
class Comparison:
    landscape: Landscape
    budget: float
    seeds: int
    settings: Settings
    results: list[dict[str, Any]]
    curves: dict[str, list[tuple[float, float]]]
    runs: dict[str, list[RunResult]] = dataclasses.field(default_factory=dict, repr=False)  # per seed, in order

    def to_json(self) -> dict[str, Any]:
        return {
            "landscape": dataclasses.asdict(self.landscape),
            "budget": self.budget,
            "seeds": self.seeds,
            **dataclasses.asdict(self.settings),
            "results": self.results,
        }


def _one(args: tuple) -> tuple[str, RunResult]:
    landscape, selector, seed, budget, settings = args
    return selector, simulate(landscape, selector, seed, budget, settings)


def mean_interval(values: list[float]) -> tuple[float, float]:
    """A normal 95% interval on the mean of `values`."""
    if len(values) < 2:
        return values[0], values[0]
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    mean = statistics.fmean(values)
    return mean - half, mean + half


def gap_closed(finals: list[float], low: list[float], high: list[float]) -> tuple[float, float, float] | None:
    """(selector - random) / (oracle - random) on mean final skill, with a 95% interval from
    a paired bootstrap over seeds (seed i of every selector shares its landscape); None when
    the oracle is no better than random."""

    def ratio(idx: list[int]) -> float | None:
        lo, hi = statistics.fmean(low[i] for i in idx), statistics.fmean(high[i] for i in idx)
        return None if hi - lo <= 1e-12 else (statistics.fmean(finals[i] for i in idx) - lo) / (hi - lo)

    point = ratio(list(range(len(finals))))
    if point is None:
        return None
    rng = random.Random(0)
    draws = sorted(
        r for r in (ratio([rng.randrange(len(finals)) for _ in finals]) for _ in range(BOOTSTRAP)) if r is not None
    )
    return point, draws[int(0.025 * len(draws))], draws[int(0.975 * len(draws)) - 1]


def compare(
    landscape: Landscape,
    selectors: list[str],
    budget: float,
    seeds: int,
    settings: Settings | None = None,
    workers: int | None = None,
) -> Comparison:
    settings = settings or Settings()
    jobs = [(landscape, s, seed, budget, settings) for s in selectors for seed in range(seeds)]
    runs: dict[str, list[RunResult]] = {s: [] for s in selectors}
    workers = workers or os.cpu_count() or 1
    if workers > 1:
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            for selector, result in pool.map(_one, jobs, chunksize=4):
                runs[selector].append(result)
    else:
        for job in jobs:
            selector, result = _one(job)
            runs[selector].append(result)
    ends = {s: [r.final_skill for r in rs] for s, rs in runs.items()}
    results, curves = [], {}
    for selector, rs in runs.items():
        finals = ends[selector]
        hits = sorted(r.budget_to_target if r.budget_to_target is not None else math.inf for r in rs)
        median_hit = statistics.median(hits)
        lo, hi = mean_interval(finals)
        gap = gap_closed(finals, ends["random"], ends["oracle"]) if {"random", "oracle"} <= runs.keys() else None
        results.append(
            {
                "selector": selector,
                "final_skill_mean": round(statistics.fmean(finals), 4),
                "final_skill_ci": [round(lo, 4), round(hi, 4)],
                "gap_closed": None if gap is None else round(gap[0], 3),
                "gap_closed_ci": None if gap is None else [round(gap[1], 3), round(gap[2], 3)],
                "best_in_archive_mean": round(statistics.fmean(r.best_in_archive for r in rs), 4),
                "budget_to_target_median": None if math.isinf(median_hit) else median_hit,
                "reached_target": sum(r.budget_to_target is not None for r in rs),
                "agents_mean": round(statistics.fmean(r.agents for r in rs), 1),
                "evaluations_mean": round(statistics.fmean(r.evaluations for r in rs), 1),
                "judged_mean": round(statistics.fmean(r.judged for r in rs), 1),
                "gated_mean": round(statistics.fmean(r.gated for r in rs), 1),
            }
        )
        length = min(len(r.curve) for r in rs)
        curves[selector] = [(rs[0].curve[i][0], statistics.fmean(r.curve[i][1] for r in rs)) for i in range(length)]
    return Comparison(landscape, budget, seeds, settings, results, curves, runs)


def table(c: Comparison) -> list[str]:
    params = ", ".join(f"{k}={v}" for k, v in dataclasses.asdict(c.landscape).items())
    s = c.settings
    gate = "off" if s.judge_first is None else f"{s.judge_first:g}"
    out = [
        f"landscape: {params}",
        f"mode {s.mode} (alpha {s.alpha:g}), budget {c.budget:g} evaluations, {c.seeds} seeds, "
        f"final rule {s.final_rule}, target skill {s.target}, admission {s.admission}, judge-first {gate}",
        f"{'selector':18} {'final skill':>12} {'95% interval':>16} {'gap closed':>11} {'95% interval':>16} "
        f"{'best in archive':>16} {'budget to target':>17} {'agents':>7}"
        + (f" {'gated':>6}" if s.judge_first is not None else ""),
    ]
    for r in c.results:
        hit = r["budget_to_target_median"]
        gap = "-" if r["gap_closed"] is None else f"{r['gap_closed']:.2f}"
        gap_ci = "-" if r["gap_closed_ci"] is None else f"{r['gap_closed_ci'][0]:.2f}-{r['gap_closed_ci'][1]:.2f}"
        out.append(
            f"{r['selector']:18} {r['final_skill_mean']:12.3f} "
            f"{r['final_skill_ci'][0]:7.3f}-{r['final_skill_ci'][1]:<7.3f} {gap:>11} {gap_ci:>16} "
            f"{r['best_in_archive_mean']:16.3f} {'never' if hit is None else f'{hit:g}':>17} {r['agents_mean']:7.1f}"
            + (f" {r['gated_mean']:6.1f}" if s.judge_first is not None else "")
        )
    return out
