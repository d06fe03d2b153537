"""What the inspection commands show, read once from the archive: every node with its
scores per evaluation label (the run's benchmark, and transfer evals as SUITE@MODEL)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from archive import Archive, UnknownRecordError

from ..engine import final
from ..engine.admission import ANY, AdmissionError, make_admission
from ..engine.cheating import CheatingRates, CheatRate, cheating_rates
from ..engine.config import RunConfig
from ..engine.text import printable  # noqa: F401 - the inspection commands' name for it
from ..engine.utilities import TESTS, UtilityError, make_utility
from ..engine.view import View, build


class InspectError(Exception):
    """A node or run that cannot be shown; the message says why."""


@dataclass(frozen=True)
class Score:
    resolved: int
    n: int

    @property
    def rate(self) -> float:
        return self.resolved / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return final.wilson_interval(self.resolved, self.n)

    def text(self) -> str:
        lo, hi = self.interval
        return f"{self.resolved}/{self.n} [{lo:.2f}-{hi:.2f}]" if self.n else "-"


@dataclass(frozen=True)
class NodeInfo:
    id: int
    parent_id: int | None
    status: str
    reason: str | None
    snapshot: str
    origin: dict[str, Any]
    created_at: float
    scores: dict[str, Score] = field(default_factory=dict)
    children: tuple[int, ...] = ()
    not_admitted: str | None = None  # why the run's admission rule keeps it from being a parent
    second_parent_id: int | None = None  # a recombined child's other parent


@dataclass(frozen=True)
class RunData:
    nodes: dict[int, NodeInfo]
    label: str  # the run's own benchmark label
    config: dict[str, Any]
    best: int | None
    best_lineage: tuple[int, ...]
    epoch: str = ""  # "epoch N, utility U" where the run records epochs
    cheating: CheatingRates = field(default_factory=lambda: CheatingRates(CheatRate(None, 0, 0)))

    def node(self, ref: str | int) -> NodeInfo:
        if str(ref) == "best":
            if self.best is None:
                raise InspectError("no node has been evaluated yet, so there is no best agent")
            return self.nodes[self.best]
        try:
            return self.nodes[int(ref)]
        except (KeyError, ValueError):
            raise InspectError(f"no node {ref!r} in this run (nodes 1-{max(self.nodes, default=0)})") from None


def run_view(archive: Archive, label: str) -> View:
    """The engine's view of the run on `label`, under its admission rule and the utility of
    its current epoch (what its final rule and admission decisions are read from)."""
    config = archive.run_config() or {}
    try:
        admission = make_admission(config.get("admission") or "any")
    except AdmissionError:
        admission = ANY
    epochs = archive.epochs()
    try:
        utility = make_utility(epochs[-1].utility) if epochs else TESTS
    except UtilityError:
        utility = TESTS
    return build(archive, label, (), admission, utility)


def collect(archive: Archive, rule: str | None = None) -> RunData:
    config = archive.run_config() or {}
    counts: dict[int, dict[str, Score]] = defaultdict(dict)
    for node_id, label, resolved, n in archive.db.execute(
        "SELECT node_id, benchmark, sum(resolved), count(*) FROM evaluations GROUP BY node_id, benchmark"
    ):
        counts[node_id][label] = Score(resolved, n)
    label = RunConfig.for_archive(archive).benchmark if counts else config.get("benchmark", "")
    children: dict[int, list[int]] = defaultdict(list)
    nodes = archive.nodes()
    for node in nodes:
        if node.parent_id is not None:
            children[node.parent_id].append(node.id)
    view = run_view(archive, label)
    infos = {
        n.id: NodeInfo(
            n.id,
            n.parent_id,
            n.status,
            n.reason,
            n.snapshot,
            n.origin,
            n.created_at,
            counts.get(n.id, {}),
            tuple(children[n.id]),
            view.refusal(n.id) if n.status == "valid" else None,
            n.second_parent_id,
        )
        for n in nodes
    }
    best = final.best(view, rule or config.get("final_rule", "quantile")) if nodes else None
    lineage: tuple[int, ...] = ()
    if best is not None:
        try:
            lineage = tuple(n.id for n in archive.lineage(best))
        except UnknownRecordError:
            lineage = ()
    epochs = archive.epochs()
    epoch = f"epoch {epochs[-1].id}, utility {epochs[-1].utility}" if epochs else ""
    return RunData(infos, label, config, best, lineage, epoch, cheating_rates(archive))
