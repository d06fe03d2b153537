"""Recipes: the documented presets of the systems dgm reproduces (`dgm evolve --recipe NAME`,
`dgm recipes`). A recipe sets run-config keys below the config file and the flags, so any
of its levers can still be overridden; the run stores the resolved values."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Recipe:
    name: str
    paper: str
    summary: str
    settings: dict[str, Any] = field(default_factory=dict)
    not_reproduced: str = ""  # what of the paper dgm does not do


RECIPES: dict[str, Recipe] = {
    r.name: r
    for r in (
        Recipe(
            "dgm",
            "the Darwin Gödel Machine (DGM)",
            "generations of children, parents by score and child count, staged evaluation",
            {"mode": "dgm", "selector": "score_child_prop", "admission": "any", "recombine": 0.0},
            "its archive admits only children that still work as coding agents; dgm keeps every child and "
            "marks the ones failing their check invalid (never parents)",
        ),
        Recipe(
            "hgm",
            "the Huxley-Gödel Machine (HGM)",
            "asynchronous expansion, parents by clade metaproductivity (Thompson sampling)",
            {"mode": "hgm", "selector": "cmp_thompson", "admission": "any", "recombine": 0.0},
        ),
        Recipe(
            "gea",
            "Group-Evolving Agents (GEA)",
            "each meta agent learns from a group chosen by performance and novelty",
            {"mode": "gea", "selector": "cmp_thompson", "group_size": 3, "admission": "any", "recombine": 0.0},
            "one child per expansion with the group's evidence, not one child per member per round",
        ),
        Recipe(
            "darwinx",
            "DarwinX",
            "preserve-and-extend admission, recombination of lineages, teacher evidence (with --teacher-model)",
            {"mode": "hgm", "selector": "cmp_thompson", "admission": "preserve_extend", "recombine": 0.25},
            "the teacher needs a model name (--teacher-model); self-derived evidence is the seed's own",
        ),
        Recipe(
            "rqgm",
            "the Red Queen Gödel Machine (RQGM)",
            "epochs with one utility each (the hidden tests, then tests plus an agent-as-a-judge code review), "
            "judge-first staging",
            {
                "mode": "hgm",
                "selector": "cmp_thompson",
                "admission": "any",
                "recombine": 0.0,
                "epochs": "50:tests,tests+judge:0.3",
                "judge_first": 0.2,
            },
            "the judge's model is the run's unless --model-judge names one; the paper's utility also evolves, "
            "here the schedule is fixed in advance",
        ),
    )
}


def lines() -> list[str]:
    """`dgm recipes`: each recipe, its paper, and the levers it sets."""
    out = []
    for r in RECIPES.values():
        out.append(f"{r.name:8} {r.paper}: {r.summary}")
        out.append(f"{'':8}   sets: {', '.join(f'{k}={v}' for k, v in r.settings.items())}")
        if r.not_reproduced:
            out.append(f"{'':8}   not reproduced: {r.not_reproduced}")
    return out
