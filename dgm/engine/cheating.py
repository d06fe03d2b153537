"""The cheating rate: the share of an agent's gradings (and of the run's) judged `tampered`
(it forged its test results) or `gamed` (a twin test an honest fix must fail passed), with
its denominator. Read from the archive: every evaluation is one grading, on any label
(transfer evaluations included); it counts as cheating when a grading_tampered or
grading_gamed event names its node, label and task, once however many such events it has.
The one place every view (status, show, report, tree, serve) takes it from."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from archive import Archive

CHEATING_EVENTS = ("grading_tampered", "grading_gamed")
RISING = "▲"  # the mark of an agent whose rate is higher than its parent's


@dataclass(frozen=True)
class CheatRate:
    """`cheated` of `gradings` judged tampered or gamed; `node_id` None: the whole run.
    `rising`: higher than its parent's rate (a parent without gradings counts as 0)."""

    node_id: int | None
    cheated: int
    gradings: int
    parent_id: int | None = None
    rising: bool = False

    @property
    def rate(self) -> float:
        return self.cheated / self.gradings if self.gradings else 0.0

    def percent(self) -> str:
        if not self.gradings:
            return "none graded"
        share = 100 * self.cheated / self.gradings
        return "<1%" if 0 < share < 1 else f"{share:.0f}%"

    def text(self) -> str:
        """`cheating 2/14 gradings (14%)`, the same in every view."""
        return f"cheating {self.cheated}/{self.gradings} gradings ({self.percent()})"

    def tag(self) -> str:
        """The tree's short form: `cheat 1/3`, with RISING when higher than its parent's;
        empty when it never cheated."""
        if not self.cheated:
            return ""
        return f"cheat {self.cheated}/{self.gradings}" + (f" {RISING}" if self.rising else "")

    def as_json(self) -> dict[str, Any]:
        """As the status summary and dgm serve send it (its text is what every view prints)."""
        return {
            "node": self.node_id,
            "cheated": self.cheated,
            "gradings": self.gradings,
            "rising": self.rising,
            "text": self.text(),
        }

    def higher_than(self, other: CheatRate) -> bool:
        """Whether this rate is higher than `other`'s (exact: no rounding)."""
        return self.cheated * max(other.gradings, 1) > other.cheated * max(self.gradings, 1)


@dataclass(frozen=True)
class CheatingRates:
    run: CheatRate
    nodes: Mapping[int, CheatRate] = field(default_factory=lambda: MappingProxyType({}))

    def of(self, node_id: int) -> CheatRate:
        """Node `node_id`'s rate (0/0 for a node it does not know)."""
        return self.nodes.get(node_id) or CheatRate(node_id, 0, 0)

    def cheaters(self) -> list[CheatRate]:
        """The agents with a nonzero rate, highest rate first."""
        found = [r for r in self.nodes.values() if r.cheated]
        return sorted(found, key=lambda r: (-r.rate, -r.cheated, r.node_id))


def _caught(archive: Archive) -> set[tuple[int, str | None, str]]:
    """(node, label, task) of every grading judged tampered or gamed; label None where the
    event did not record one (it then names the task on every label)."""
    marks = ", ".join("?" for _ in CHEATING_EVENTS)
    caught = set()
    for node_id, data in archive.db.execute(
        f"SELECT node_id, data FROM events WHERE kind IN ({marks}) AND node_id IS NOT NULL", CHEATING_EVENTS
    ):
        info = json.loads(data or "{}")
        if isinstance(info, dict) and isinstance(info.get("task"), str):
            label = info.get("label")
            caught.add((node_id, label if isinstance(label, str) else None, info["task"]))
    return caught


def cheating_rates(archive: Archive) -> CheatingRates:
    """Every agent's cheating rate and the run's."""
    caught = _caught(archive)
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for node_id, label, task in archive.db.execute("SELECT node_id, benchmark, task_id FROM evaluations"):
        c = counts[node_id]
        c[0] += (node_id, label, task) in caught or (node_id, None, task) in caught
        c[1] += 1
    parents = dict(archive.db.execute("SELECT id, parent_id FROM nodes ORDER BY id").fetchall())
    plain = {n: CheatRate(n, *counts.get(n, (0, 0)), parent_id=p) for n, p in parents.items()}
    nodes = {
        n: replace(r, rising=r.parent_id is not None and r.higher_than(plain[r.parent_id])) for n, r in plain.items()
    }
    run = CheatRate(None, sum(c[0] for c in counts.values()), sum(c[1] for c in counts.values()))
    return CheatingRates(run, MappingProxyType(nodes))
