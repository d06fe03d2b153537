"""What `dgm serve` shows, read from a run's archive opened read-only (never locked, never
written), as JSON-able values. The run-wide answers (overview, tree) are recomputed only
when the run has committed since (SQLite's data_version). Agent-written text goes out as
data; the page shows it as text, never as markup."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archive import Archive, UnknownRecordError

from ..engine import final
from ..engine.cheating import CheatingRates, CheatRate, cheating_rates
from ..engine.config import RunConfig
from ..engine.evidence import bundle
from ..engine.status import lines, summary, task_order
from . import charts, running
from .data import InspectError, run_view
from .pages import citation_lines, progress_series

DIFF_LIMIT = 200_000  # characters of a diff sent to the page
NOTE_LIMIT = 20_000  # characters of each memory note
NOTE_FILES = 20  # memory notes shown of one agent
MESSAGE_LIMIT = 5_000  # messages of one trajectory
REFRESH_COST = 4  # a run-wide answer is recomputed at most once per 4x the time it takes
# What the tree can be filtered by, each from the events the run records.
FLAGS = {
    "tampered": "grading_tampered",
    "gamed": "grading_gamed",
    "flagged": "grading_flagged",
    "phantom": "diagnosis_phantom",
    "stripped": "patch_flagged",
}
TREE_FIELDS = ["id", "parent", "second_parent", "status", "resolved", "n", "flags", "cheated", "gradings", "rising"]


def messages(text: str) -> list[dict[str, Any]]:
    """A trajectory.jsonl as a message list; a line that is not a JSON object is kept raw."""
    out: list[dict[str, Any]] = []
    for line in text.splitlines()[:MESSAGE_LIMIT]:
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError:
            item = None
        out.append(item if isinstance(item, dict) else {"raw": line})
    return out


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n[... {len(text) - limit} more characters not shown ...]"


def _score(resolved: int, n: int) -> dict[str, Any]:
    lo, hi = final.wilson_interval(resolved, n)
    return {"resolved": resolved, "n": n, "interval": [round(lo, 3), round(hi, 3)]}


def _marks(values) -> str:
    """SQL placeholders, one per value."""
    return ", ".join("?" for _ in values)


def _cheat_row(rate: CheatRate) -> tuple[int, int, bool]:
    return rate.cheated, rate.gradings, rate.rising


def _cheat_node(rates: CheatingRates, node_id: int) -> dict[str, Any]:
    """An agent's cheating rate for its page, and its parent's."""
    rate = rates.of(node_id)
    parent = rates.of(rate.parent_id).text() if rate.parent_id is not None else None
    return {**rate.as_json(), "parent": parent}


@dataclass(frozen=True)
class Memo:
    version: int
    value: Any
    at: float  # when it was computed (monotonic seconds)
    cost: float  # how long that took


class Watch:
    """One run's archive, watched. Thread-safe: one lock around every read."""

    def __init__(self, run_dir: Path):
        self.run_dir = Path(run_dir)
        self.archive = Archive.for_run(self.run_dir, read_only=True, shared_between_threads=True)
        self.lock = threading.Lock()
        self._memo: dict[str, Memo] = {}
        self._rates: tuple[int, CheatingRates] | None = None

    def close(self) -> None:
        self.archive.close()

    def _version(self) -> int:
        return self.archive.db.execute("PRAGMA data_version").fetchone()[0]

    def _cached(self, name: str, compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The value as of the run's last commit; while the run commits, recomputed at most
        once per REFRESH_COST times its cost, so watching a large run costs it little CPU.
        It says which version it is of: the page asks again while that is not the newest."""
        with self._snapshot():
            version, now = self._version(), time.monotonic()
            memo = self._memo.get(name)
            if memo is None or (memo.version != version and now - memo.at >= REFRESH_COST * memo.cost):
                value = compute()
                memo = self._memo[name] = Memo(version, value, now, time.monotonic() - now)
            return {**memo.value, "version": memo.version}

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[None]:
        """Under the lock, one read transaction: every query of an answer sees the same
        commit of the run (a reader in WAL mode never holds the run up)."""
        with self.lock:
            self.archive.db.execute("BEGIN")
            try:
                yield
            finally:
                self.archive.db.execute("COMMIT")

    def warm(self) -> None:
        """Read what the first page shows, so that it loads at once."""
        self.tree()
        self.overview()

    def _read(self, compute: Callable[[], Any]) -> Any:
        with self._snapshot():
            try:
                return compute()
            except UnknownRecordError as exc:
                raise InspectError(str(exc.args[0] if exc.args else exc)) from None

    def _cheating(self) -> CheatingRates:
        """Every agent's cheating rate as of the run's last commit (call under the lock)."""
        version = self._version()
        if self._rates is None or self._rates[0] != version:
            self._rates = (version, cheating_rates(self.archive))
        return self._rates[1]

    # --- the run ---------------------------------------------------------------------
    def version(self) -> dict[str, Any]:
        """Changes whenever the run commits; the page polls it."""
        with self.lock:
            ar = self.archive
            return {
                "version": self._version(),
                "nodes": ar.db.execute("SELECT count(*) FROM nodes").fetchone()[0],
                "evaluations": ar.db.execute("SELECT count(*) FROM evaluations").fetchone()[0],
            }

    def overview(self) -> dict[str, Any]:
        return self._cached("overview", self._overview)

    def _overview(self) -> dict[str, Any]:
        ar = self.archive
        config = RunConfig.for_archive(ar)
        tasks = task_order(sorted(t for (t,) in ar.db.execute("SELECT DISTINCT task_id FROM evaluations")), config.seed)
        status = summary(ar, config, tasks)
        points, band = progress_series(ar, config.benchmark, config.final_rule)
        title = f"Final pick by the run's rule ({final.RULE_NAMES[config.final_rule]}), 95% interval"
        chart = charts.line_chart(points, title, "evaluations spent", "resolve rate", band, y_max=1.0)
        return {"run": str(self.run_dir), "summary": status, "lines": lines(status), "chart": chart}

    def tree(self) -> dict[str, Any]:
        return self._cached("tree", self._tree)

    def _tree(self) -> dict[str, Any]:
        """Every agent as a row (the page lays the tree out), the final rule's pick and its
        lineage; read with a few queries, not node by node (10,000 agents in well under 1 s)."""
        ar = self.archive
        config = RunConfig.for_archive(ar)
        rows = ar.db.execute("SELECT id, parent_id, second_parent_id, status FROM nodes ORDER BY id").fetchall()
        scores = {
            node_id: (resolved, n)
            for node_id, resolved, n in ar.db.execute(
                "SELECT node_id, sum(resolved), count(*) FROM evaluations WHERE benchmark = ? GROUP BY node_id",
                [config.benchmark],
            )
        }
        marks: dict[int, set[str]] = defaultdict(set)
        for name, kind in FLAGS.items():
            for (node_id,) in ar.db.execute("SELECT DISTINCT node_id FROM events WHERE kind = ?", [kind]):
                marks[node_id].add(name)
        view = run_view(ar, config.benchmark)
        cheating = self._cheating()
        for node_id, *_, status in rows:
            if status == "valid" and view.refusal(node_id):
                marks[node_id].add("not_admitted")
        best = final.best(view, config.final_rule) if rows else None
        parent = {node_id: parent_id for node_id, parent_id, *_ in rows}
        lineage, node = [], best
        while node is not None:
            lineage.append(node)
            node = parent.get(node)
        return {
            "label": config.benchmark,
            "best": best,
            "lineage": lineage,
            "rule": config.final_rule,
            "fields": TREE_FIELDS,
            "nodes": [
                [*row, *scores.get(row[0], (0, 0)), sorted(marks.get(row[0], ())), *_cheat_row(cheating.of(row[0]))]
                for row in rows
            ],
        }

    # --- jobs in flight ---------------------------------------------------------------
    def running(self) -> dict[str, Any]:
        """The running jobs: their age, the calls recorded for each, and whether an agent of
        each runs now (its trajectory can be followed). Read at each call, never cached."""
        return self._read(lambda: running.jobs(self.archive, self.run_dir))

    def live_trajectory(self, job_id: int) -> dict[str, Any]:
        """The tail of the trajectory job `job_id`'s agent is writing now (bounded)."""
        return self._read(lambda: running.trajectory(self.archive, self.run_dir, job_id, messages))

    # --- one node --------------------------------------------------------------------
    def node(self, node_id: int) -> dict[str, Any]:
        return self._read(lambda: self._node(node_id))

    def _node(self, node_id: int) -> dict[str, Any]:
        ar = self.archive
        node = ar.node(node_id)
        per_task: dict[tuple[str, str], list] = defaultdict(list)
        per_label: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for ev in ar.evaluations(node_id):
            per_task[(ev.benchmark, ev.task_id)].append(
                {"id": ev.id, "attempt": ev.attempt, "resolved": ev.resolved, "seconds": round(ev.duration_s, 1)}
            )
            per_label[ev.benchmark][0] += ev.resolved
            per_label[ev.benchmark][1] += 1
        tasks = [
            {"label": label, "task": task, **_score(sum(e["resolved"] for e in evs), len(evs)), "evaluations": evs}
            for (label, task), evs in sorted(per_task.items())
        ]
        origin = node.origin
        diff = ar.diff(ar.node(node.parent_id).snapshot, node.snapshot) if node.parent_id is not None else ""
        notes = [e for e in ar.manifest(node.snapshot) if e.blob and "memory/" in f"/{e.path}"]
        memory = [  # agent-written and as many as the snapshot holds: the first NOTE_FILES, each clipped
            {"path": e.path, "text": _clip(ar.blob(e.blob).decode("utf-8", "replace"), NOTE_LIMIT)}
            for e in notes[:NOTE_FILES]
        ]
        model_use = [
            {"role": role or "-", "model": model, "calls": calls, "tokens": tokens, "usd": round(usd, 6)}
            for role, model, calls, tokens, usd in ar.db.execute(
                "SELECT role, model, count(*), sum(prompt_tokens + completion_tokens), sum(cost_usd) FROM fm_calls "
                "WHERE node_id = ? GROUP BY role, model ORDER BY min(id)",
                [node_id],
            )
        ]
        flags = [
            {"kind": kind, "data": json.loads(data)}
            for kind, data in ar.db.execute(
                f"SELECT kind, data FROM events WHERE node_id = ? AND kind IN ({_marks(FLAGS)}) ORDER BY id",
                [node_id, *FLAGS.values()],
            )
        ]
        return {
            "id": node.id,
            "parent": node.parent_id,
            "second_parent": node.second_parent_id,
            "status": node.status,
            "reason": node.reason,
            "created_at": node.created_at,
            "scores": [{"label": label, **_score(*c)} for label, c in sorted(per_label.items())],
            "tasks": tasks,
            "diagnosis": {key: origin.get(key, "") for key in ("summary", "proposal", "focus")},
            "citations": citation_lines(origin),
            "origin": {k: v for k, v in origin.items() if k not in ("summary", "proposal", "focus", "citations")},
            "expansion_trajectory": bool(origin.get("trajectory")),
            "diff": _clip(diff, DIFF_LIMIT),
            "memory": memory,
            "memory_not_shown": len(notes) - len(memory),
            "model_use": model_use,
            "flags": flags,
            "cheating": _cheat_node(self._cheating(), node_id),
        }

    def evaluation(self, evaluation_id: int) -> dict[str, Any]:
        return self._read(lambda: self._evaluation(evaluation_id))

    def _evaluation(self, evaluation_id: int) -> dict[str, Any]:
        row = self.archive.db.execute("SELECT node_id FROM evaluations WHERE id = ?", [evaluation_id]).fetchone()
        if row is None:
            raise InspectError(f"no evaluation {evaluation_id} in this run")
        ev = next(e for e in self.archive.evaluations(row[0]) if e.id == evaluation_id)
        info = bundle(self.archive, ev.log_blob)
        judged = [
            {"score": j.score, "model": j.model, "rationale": j.rationale}
            for j in self.archive.judgements(ev.node_id, ev.benchmark)
            if j.task_id == ev.task_id
        ]
        return {
            "id": ev.id,
            "node": ev.node_id,
            "label": ev.benchmark,
            "task": ev.task_id,
            "attempt": ev.attempt,
            "resolved": ev.resolved,
            "seconds": round(ev.duration_s, 1),
            "tests": ev.tests,
            "messages": messages(str(info.get("trajectory", ""))),
            "grading": {k: v for k, v in info.items() if k != "trajectory"},
            "judgements": judged,
        }

    def expansion(self, node_id: int) -> dict[str, Any]:
        """The meta agent's trajectory in the expansion that made `node_id`."""
        return self._read(lambda: self._expansion(node_id))

    def _expansion(self, node_id: int) -> dict[str, Any]:
        node = self.archive.node(node_id)
        blob = node.origin.get("trajectory")
        if not isinstance(blob, str):
            raise InspectError(f"node {node_id} has no recorded expansion trajectory")
        text = self.archive.blob(blob).decode("utf-8", "replace")
        return {"node": node.id, "parent": node.parent_id, "job": node.origin.get("job"), "messages": messages(text)}

    # --- two nodes -------------------------------------------------------------------
    def diff(self, a: int, b: int) -> dict[str, Any]:
        def compute() -> dict[str, Any]:
            text = self.archive.diff(self.archive.node(a).snapshot, self.archive.node(b).snapshot)
            return {"a": a, "b": b, "diff": _clip(text, DIFF_LIMIT)}

        return self._read(compute)

    def compare(self, a: int, b: int) -> dict[str, Any]:
        def compute() -> dict[str, Any]:
            results: dict[tuple[str, str], dict[int, list[int]]] = defaultdict(lambda: {a: [0, 0], b: [0, 0]})
            for node_id in (a, b):
                self.archive.node(node_id)
                for ev in self.archive.evaluations(node_id):
                    c = results[(ev.benchmark, ev.task_id)][node_id]
                    c[0] += ev.resolved
                    c[1] += 1
            rows = [
                {"label": label, "task": task, "a": _score(*r[a]), "b": _score(*r[b])}
                for (label, task), r in sorted(results.items())
            ]
            text = self.archive.diff(self.archive.node(a).snapshot, self.archive.node(b).snapshot)
            return {"a": a, "b": b, "tasks": rows, "diff": _clip(text, DIFF_LIMIT)}

        return self._read(compute)
