"""Selectors compared over seeds on one landscape: final skill (mean and 95% interval),
best skill in the archive, budget to reach a target, and the mean curves."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import math
import os
import statistics
from dataclasses import dataclass
from typing import Any

from .landscape import Landscape
from .run import RunResult, simulate


@dataclass(frozen=True)
class Comparison:
    landscape: Landscape
    mode: str
    budget: float
    seeds: int
    target: float
    final_rule: str
    alpha: float
    results: list[dict[str, Any]]
    curves: dict[str, list[tuple[float, float]]]
    admission: str = "any"

    def to_json(self) -> dict[str, Any]:
        return {
            "landscape": dataclasses.asdict(self.landscape),
            "mode": self.mode,
            "budget": self.budget,
            "seeds": self.seeds,
            "target": self.target,
            "final_rule": self.final_rule,
            "alpha": self.alpha,
            "admission": self.admission,
            "results": self.results,
        }


def _one(args: tuple) -> tuple[str, RunResult]:
    landscape, selector, seed, budget, mode, rule, target, alpha, admission = args
    return selector, simulate(landscape, selector, seed, budget, mode, rule, target, alpha, admission)


def _interval(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    mean = statistics.fmean(values)
    return mean - half, mean + half


def compare(
    landscape: Landscape,
    selectors: list[str],
    budget: float,
    seeds: int,
    mode: str = "hgm",
    final_rule: str = "quantile",
    target: float = 0.4,
    workers: int | None = None,
    alpha: float = 0.6,
    admission: str = "any",
) -> Comparison:
    jobs = [
        (landscape, s, seed, budget, mode, final_rule, target, alpha, admission)
        for s in selectors
        for seed in range(seeds)
    ]
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
    results, curves = [], {}
    for selector, rs in runs.items():
        finals = [r.final_skill for r in rs]
        hits = sorted(r.budget_to_target if r.budget_to_target is not None else math.inf for r in rs)
        median_hit = statistics.median(hits)
        lo, hi = _interval(finals)
        results.append(
            {
                "selector": selector,
                "final_skill_mean": round(statistics.fmean(finals), 4),
                "final_skill_ci": [round(lo, 4), round(hi, 4)],
                "best_in_archive_mean": round(statistics.fmean(r.best_in_archive for r in rs), 4),
                "budget_to_target_median": None if math.isinf(median_hit) else median_hit,
                "reached_target": sum(r.budget_to_target is not None for r in rs),
                "agents_mean": round(statistics.fmean(r.agents for r in rs), 1),
            }
        )
        length = min(len(r.curve) for r in rs)
        curves[selector] = [(rs[0].curve[i][0], statistics.fmean(r.curve[i][1] for r in rs)) for i in range(length)]
    return Comparison(landscape, mode, budget, seeds, target, final_rule, alpha, results, curves, admission)


def table(c: Comparison) -> list[str]:
    params = ", ".join(f"{k}={v}" for k, v in dataclasses.asdict(c.landscape).items())
    out = [
        f"landscape: {params}",
        f"mode {c.mode} (alpha {c.alpha:g}), budget {c.budget:g} evaluations, {c.seeds} seeds, "
        f"final rule {c.final_rule}, target skill {c.target}, admission {c.admission}",
        f"{'selector':18} {'final skill':>12} {'95% interval':>16} {'best in archive':>16} "
        f"{'budget to target':>17} {'agents':>7}",
    ]
    for r in c.results:
        hit = r["budget_to_target_median"]
        out.append(
            f"{r['selector']:18} {r['final_skill_mean']:12.3f} "
            f"{r['final_skill_ci'][0]:7.3f}-{r['final_skill_ci'][1]:<7.3f} {r['best_in_archive_mean']:16.3f} "
            f"{'never' if hit is None else f'{hit:g}':>17} {r['agents_mean']:7.1f}"
        )
    return out
