"""Progress of a run: a live panel on a terminal (rich), plain log lines otherwise.

Both show the work in flight, not only what is finished: each running job (its kind, its
node and task, how long it has run, its model calls and tokens so far) and each model call
still in flight (how long it has run, the prompt tokens the gateway counted, and the
completion tokens decoded so far where the upstream tells), read live from the gateway
(`Gateway.live`). The headline's tokens count the calls in flight apart:
`1234 tokens (+2433 in flight)`, so a slow first call never reads as nothing happening."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import final
from .text import printable

if TYPE_CHECKING:
    from ..gateway.live import JobLive, RunLive
    from .engine import RunState

log = logging.getLogger("dgm.evolve")
LINE_EVERY_S = 30  # how often the plain log repeats the headline and the running jobs


@dataclass(frozen=True)
class RunningJob:
    """A job in flight, as the progress shows it."""

    job_id: int
    kind: str  # expand, evaluate
    what: str  # "node 3", "node 3 on TASK"
    started: float  # monotonic seconds


def duration(seconds: float) -> str:
    """`45s`, `4m12s`, `2h05m`."""
    seconds = int(max(seconds, 0))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def tokens_text(live: RunLive) -> str:
    """The run's tokens: charged, and (while calls are in flight) what those have counted."""
    spent = f"{int(live.spent.tokens)} tokens"
    if not live.calls_in_flight:
        return spent
    calls = "call" if live.calls_in_flight == 1 else "calls"
    return f"{spent} (+{live.tokens_in_flight} in flight, {live.calls_in_flight} {calls})"


def job_line(job: RunningJob, figures: JobLive | None, now: float) -> str:
    """One running job: `job 7 evaluate node 3 on TASK: 4m12s, 3 model calls done, 5120
    tokens (+2553 in flight); a call in flight for 1m03s (2433 prompt tokens, 120 decoded so far)`."""
    head = f"job {job.job_id} {job.kind} {printable(job.what[:120])}: {duration(now - job.started)}"
    if figures is None:
        return f"{head}, no model calls yet"
    tokens = f"{int(figures.spent.tokens)} tokens"
    if figures.in_flight:
        tokens += f" (+{figures.tokens_in_flight} in flight)"
    parts = [f"{head}, {figures.calls} model calls done, {tokens}"]
    for call in figures.in_flight:
        decoded = f", {call.decoded} decoded so far" if call.decoded is not None else ""
        parts.append(f"a call in flight for {duration(call.age_s)} ({call.prompt} prompt tokens{decoded})")
    if figures.waiting:
        parts.append(f"{figures.waiting} call(s) waiting for budget held by calls in flight")
    return "; ".join(parts)


def job_lines(gw, running: tuple[RunningJob, ...]) -> list[str]:
    live = gw.live([j.job_id for j in running])
    now = time.monotonic()
    return [job_line(j, live.jobs.get(j.job_id), now) for j in running]


class Progress:
    """Plain log lines (for files, pipes and CI)."""

    def __init__(self) -> None:
        self.evals = self.resolved = self.children = self.valid = 0
        self.last_line = 0.0

    def note(self, message: str) -> None:
        log.info("%s", message)

    def evaluated(self, node: int, task: str, resolved: bool, reason: str | None, seconds: float) -> None:
        self.evals += 1
        self.resolved += resolved
        self.note(f"node {node} on {task}: {'RESOLVED' if resolved else reason} ({seconds:.1f}s)")

    def expanded(self, parent: int, child: int, valid: bool, reason: str | None, tokens: int) -> None:
        self.children += 1
        self.valid += valid
        self.note(
            f"node {parent} -> child {child}: {'valid' if valid else 'INVALID: ' + printable((reason or '')[:160])} "
            f"({tokens} tokens)"
        )

    def headline(self, view, flight, gw) -> str:
        best = final.best(view, "quantile")
        best_text = "-"
        if best is not None:
            node = view.nodes[best]
            best_text = f"node {best} {node.successes:g}/{node.n}"
        live = gw.live()
        return (
            f"agents {len(view.nodes)} ({len(view.valid())} valid) | evaluations {view.evaluations()} | "
            f"best {best_text} | {tokens_text(live)} ${live.spent.usd:.4f} | running {len(flight.expands)} expand, "
            f"{len(flight.evaluations)} evaluate"
        )

    def update(self, view, flight, gw, state: RunState) -> None:
        if time.monotonic() - self.last_line >= LINE_EVERY_S:
            self.last_line = time.monotonic()
            self.note(self.headline(view, flight, gw))
            for line in job_lines(gw, state.running):
                self.note(f"  {line}")

    def close(self) -> None:
        """Nothing to tear down for plain lines."""


class LiveProgress(Progress):
    """A rich live panel: the headline and the latest events."""

    def __init__(self) -> None:
        super().__init__()
        from rich.console import Console
        from rich.live import Live

        self.recent: list[str] = []
        self.console = Console(stderr=True)
        self.live = Live(console=self.console, refresh_per_second=2, transient=False)
        self.live.start()
        self.head = "starting"
        self.jobs: list[str] = []

    def note(self, message: str) -> None:
        self.recent = ([*self.recent, f"{time.strftime('%H:%M:%S')} {message}"])[-12:]
        self._render()

    def update(self, view, flight, gw, state: RunState) -> None:
        self.head = self.headline(view, flight, gw)
        self.jobs = job_lines(gw, state.running)
        self._render()

    def _render(self) -> None:
        from rich.panel import Panel
        from rich.text import Text

        running = ["running now:", *(f"  {line}" for line in self.jobs)] if self.jobs else []
        # Plain text (never rich markup: names and reasons come from agents); the headline
        # first, where it wraps on a narrow terminal instead of being cut.
        body = Text("\n".join([self.head, *running, "", *self.recent]))
        self.live.update(Panel(body, title="dgm evolve"))

    def close(self) -> None:
        self.live.stop()
