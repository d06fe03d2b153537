"""Progress of a run: a live panel on a terminal (rich), plain log lines otherwise."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from . import final
from .text import printable

if TYPE_CHECKING:
    from .engine import RunState

log = logging.getLogger("dgm.evolve")


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
        usage = gw.run_usage
        return (
            f"agents {len(view.nodes)} ({len(view.valid())} valid) | evaluations {view.evaluations()} | "
            f"best {best_text} | {int(usage.tokens)} tokens ${usage.usd:.4f} | running {len(flight.expands)} expand, "
            f"{len(flight.evaluations)} evaluate"
        )

    def update(self, view, flight, gw, state: RunState) -> None:
        if time.monotonic() - self.last_line >= 30:
            self.last_line = time.monotonic()
            self.note(self.headline(view, flight, gw))

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

    def note(self, message: str) -> None:
        self.recent = (self.recent + [f"{time.strftime('%H:%M:%S')} {message}"])[-12:]
        self._render()

    def update(self, view, flight, gw, state: RunState) -> None:
        self.head = self.headline(view, flight, gw)
        self._render()

    def _render(self) -> None:
        from rich.panel import Panel

        self.live.update(Panel("\n".join(self.recent), title="dgm evolve", subtitle=self.head))

    def close(self) -> None:
        self.live.stop()
