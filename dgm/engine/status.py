"""The run's summary: what `dgm status` prints and what a finished `dgm evolve` reports."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from archive import Archive

from . import final
from .cheating import RISING, cheating_rates
from .utilities import TESTS, make_utility
from .view import build

DIFFICULTY_RANK = {"easy": 0, "medium": 1, "hard": 2}  # a task of another or no difficulty comes last


def task_order(task_ids: list[str], seed: int, difficulty: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The order a run evaluates its tasks in: shuffled by the run's seed and, where the suite
    gives `difficulty`, easy first: those finish soonest, so a new run's first score (and the
    first stage of staged evaluation) comes in minutes, not after a hard task's long agent run."""
    order = sorted(task_ids)
    random.Random(seed).shuffle(order)
    if difficulty:
        order.sort(key=lambda task: DIFFICULTY_RANK.get(difficulty.get(task, ""), len(DIFFICULTY_RANK)))
    return tuple(order)


def epoch(archive: Archive) -> dict[str, Any] | None:
    """The run's current epoch as recorded (None: a run that recorded none)."""
    epochs = archive.epochs()
    if not epochs:
        return None
    last = epochs[-1]
    return {"number": last.id, "utility": last.utility, "from_evaluation": last.from_evaluation}


def summary(archive: Archive, config, tasks: tuple[str, ...], stop_reason: str | None = None) -> dict[str, Any]:
    current = epoch(archive)
    utility = make_utility(current["utility"]) if current else TESTS
    view = build(archive, config.benchmark, tasks)  # raw: resolved counts
    valued = view if utility == TESTS else build(archive, config.benchmark, tasks, utility=utility)
    stats = archive.stats()
    tokens, usd = archive.fm_usage()
    best_id = final.best(valued, config.final_rule)
    cheating = cheating_rates(archive)
    best = None
    if best_id is not None:
        node = view.nodes[best_id]
        lo, hi = final.wilson_interval(node.successes, node.n)
        best = {
            "node": best_id,
            "rule": config.final_rule,
            "resolved": round(node.successes),
            "n": node.n,
            "rate": round(node.mean, 4),
            "interval": [round(lo, 4), round(hi, 4)],
            "utility": round(valued.nodes[best_id].mean, 4),
            "cheating": cheating.of(best_id).as_json(),
        }
    return {
        "benchmark": config.benchmark,
        "run_stored": bool((archive.run_config() or {}).get("benchmark")),
        "mode": config.mode,
        "selector": config.selector_name,
        "nodes": stats.nodes,
        "valid": stats.nodes_by_status["valid"],
        "invalid": stats.nodes_by_status["invalid"],
        "expansions": max(stats.nodes - 1, 0),
        "evaluations": view.evaluations(),
        "resolved": round(sum(n.successes for n in view.nodes.values())),
        "epoch": current,
        "judgements": len(archive.judgements(benchmark=config.benchmark)),
        "best": best,
        "tokens": tokens,
        "usd": round(usd, 4),
        "fm_calls": archive.fm_call_count(),
        "fm_errors": len(archive.events("fm_error")),
        "fm_retried": archive.db.execute("SELECT count(*) FROM fm_calls WHERE attempts > 1").fetchone()[0],
        "spend": spend_by_model(archive),
        "spend_by_role": spend_by_role(archive),
        "flagged_patches": len(archive.events("patch_flagged")),
        "tampered": len(archive.events("grading_tampered")),
        "gamed": len(archive.events("grading_gamed")),
        "grading_flags": len(archive.events("grading_flagged")),
        "cheating": cheating.run.as_json(),
        "cheaters": [r.as_json() for r in cheating.cheaters()],
        "budget_refusals": len(archive.events("budget_exhausted")),
        "job_errors": len(archive.events("job_error")),
        "jobs": stats.jobs_by_state,
        "stop_reason": stop_reason or recorded_stop(archive),
    }


CHEATERS_SHOWN = 5


def cheaters_text(cheaters: list[dict[str, Any]]) -> str:
    """The agents with a nonzero cheating rate, highest first (the first CHEATERS_SHOWN)."""
    shown = [
        f"node {c['node']}: {c['text']}" + (f" {RISING} higher than its parent's" if c["rising"] else "")
        for c in cheaters[:CHEATERS_SHOWN]
    ]
    more = len(cheaters) - CHEATERS_SHOWN
    return "; ".join(shown) + (f"; and {more} more" if more > 0 else "")


def recorded_stop(archive: Archive) -> str | None:
    """Why the run last stopped, as it recorded; None while it runs (or if it was killed)."""
    row = archive.db.execute(
        "SELECT kind, data FROM events WHERE kind IN ('run_started', 'run_stopped') ORDER BY id DESC LIMIT 1"
    ).fetchone()
    if row is None or row[0] != "run_stopped":
        return None
    return json.loads(row[1]).get("reason") or "stopped"


def spend_by_model(archive: Archive) -> list[dict[str, Any]]:
    """Calls, tokens, dollars and speed (completion tokens per second of call time, prompt
    processing included) per model, as recorded in fm_calls."""
    rows = archive.db.execute(
        "SELECT model, count(*), sum(prompt_tokens), sum(completion_tokens), sum(cost_usd), sum(latency_s) "
        "FROM fm_calls GROUP BY model ORDER BY model"
    )
    return [
        {
            "model": m,
            "calls": n,
            "prompt_tokens": p,
            "completion_tokens": c,
            "usd": round(u, 6),
            "tokens_per_s": round(c / s, 1) if s else None,
        }
        for m, n, p, c, u, s in rows
    ]


def spend_by_role(archive: Archive) -> list[dict[str, Any]]:
    """Calls, tokens and dollars per role (solve, improve, diagnose, ...) and the models each
    used, as recorded in fm_calls; calls recorded without a role are left out."""
    rows = archive.db.execute(
        "SELECT role, model, count(*), sum(prompt_tokens + completion_tokens), sum(cost_usd) "
        "FROM fm_calls WHERE role IS NOT NULL GROUP BY role, model ORDER BY min(id)"
    )
    roles: dict[str, dict[str, Any]] = {}
    for role, model, calls, tokens, usd in rows:
        entry = roles.setdefault(role, {"role": role, "models": [], "calls": 0, "tokens": 0, "usd": 0.0})
        entry["models"].append(model)
        entry["calls"] += calls
        entry["tokens"] += tokens
        entry["usd"] = round(entry["usd"] + usd, 6)
    return list(roles.values())


def lines(s: dict[str, Any]) -> list[str]:
    best = s["best"]
    worth = ""
    if best and s.get("epoch") and s["epoch"]["utility"] != "tests":
        worth = f", mean utility {best['utility']:.2f}"
    best_text = (
        f"node {best['node']}: {best['resolved']}/{best['n']} resolved "
        f"(95% interval {best['interval'][0]:.2f}-{best['interval'][1]:.2f}, rule {best['rule']}{worth})"
        + (f", {best['cheating']['text']}" if best.get("cheating") else "")
        if best
        else "none yet"
    )
    out = [
        f"benchmark    {s['benchmark']}  "
        + (
            f"(mode {s['mode']}, selector {s['selector']})"
            if s.get("run_stored", True)
            else "(no run stored: an archive built through the API)"
        ),
        f"agents       {s['nodes']} ({s['valid']} valid, {s['invalid']} invalid; {s['expansions']} expansions)",
        f"evaluations  {s['evaluations']} ({s['resolved']} resolved"
        + (f"; {s['judgements']} judged" if s.get("judgements") else "")
        + ")",
        *(
            [
                f"epoch        {s['epoch']['number']}: utility {s['epoch']['utility']}, "
                f"since evaluation {s['epoch']['from_evaluation']}"
            ]
            if s.get("epoch")
            else []
        ),
        f"best agent   {best_text}",
        f"model use    {s['fm_calls']} calls, {s['tokens']} tokens, ${s['usd']:.4f}; {s['fm_retried']} retried, "
        f"{s['fm_errors']} failed after retries, {s['budget_refusals']} budget refusals",
        *(
            f"{'spend' if i == 0 else '':13}{m['model']}: {m['calls']} calls, {m['prompt_tokens']} prompt + "
            f"{m['completion_tokens']} completion tokens, ${m['usd']:.6f}"
            + (f", {m['tokens_per_s']} tokens/s per call" if m.get("tokens_per_s") else "")
            for i, m in enumerate(s.get("spend", []))
        ),
        *(
            f"{'roles' if i == 0 else '':13}{r['role']} ({', '.join(r['models'])}): {r['calls']} calls, "
            f"{r['tokens']} tokens, ${r['usd']:.6f}"
            for i, r in enumerate(s.get("spend_by_role", []))
        ),
        f"flags        {s['flagged_patches']} patches touched test or harness files (those hunks were removed); "
        f"{s['tampered']} grading runs tampered with (never resolved)",
        f"{'':13}{s.get('gamed', 0)} grading runs gamed: a twin test an honest fix must fail passed (never resolved); "
        f"{s.get('grading_flags', 0)} flagged by the grader (the verdict stands)",
        *(
            [f"integrity    {s['cheating']['text']} judged tampered or gamed, on every benchmark (transfers too)"]
            if s.get("cheating")
            else []
        ),
        *([f"cheaters     {cheaters_text(s['cheaters'])}"] if s.get("cheaters") else []),
        "jobs         " + ", ".join(f"{k} {v}" for k, v in s["jobs"].items()) + f"; {s['job_errors']} job errors",
    ]
    if s.get("stop_reason"):
        out.append(f"stopped      {s['stop_reason']}")
    return out
