"""`dgm bench env build` over a file of rows: instances built `workers` at a time, each
environment (and base) once however many instances need it, a line per instance with an
ETA, and a summary with the disk the images take and what they share."""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from sandbox import foreign

from ..task import BenchmarkError, Environment
from . import envbuild, envlayers

MB = 1e6


@dataclass(frozen=True)
class Outcome:
    instance_id: str
    image: str | None  # None: not built (see reason)
    reason: str | None = None
    already: bool = False  # present before: nothing built
    seconds: float = 0.0


@dataclass
class Tally:
    total: int
    done: int = 0
    started: float = 0.0

    @property
    def eta_s(self) -> float:
        return (time.monotonic() - self.started) / max(self.done, 1) * (self.total - self.done)


class KeyedLocks:
    """One lock per key (an environment's name): what two workers need is built once."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}

    def __call__(self, key: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(key, threading.Lock())


def instance_environment(row: dict) -> Environment:
    """The row's environment, or for a row without an `image` field the official name its
    image would have."""
    from ..loaders.swebench import environment

    return environment(row) or Environment(f"swebench/sweb.eval.x86_64.{row['instance_id'].lower()}:latest")


def build_rows(
    path: Path,
    repos: Path,
    progress: Callable[[str], None],
    on_done: Callable[[Outcome, Tally], None],
    only: tuple[str, ...] = (),
    force: bool = False,
    workers: int = 1,
) -> list[Outcome]:
    """Build every row's image (or the `only` ones); returns each row's outcome."""
    from ..loaders.swebench import find_clone, read_rows
    from .specs import recipe

    rows = [row for row in read_rows(path) if not only or row["instance_id"] in only]
    if not rows:
        raise BenchmarkError(f"no rows to build in {path}" + (f" among {', '.join(only)}" if only else ""))
    tally, locks, lock = Tally(len(rows), started=time.monotonic()), KeyedLocks(), threading.Lock()

    def one(row: dict) -> Outcome:
        iid, start = row["instance_id"], time.monotonic()
        env = instance_environment(row)
        plan = recipe(row)
        if not plan.buildable:
            return Outcome(iid, None, f"cannot be built offline: {plan.reason}")
        if foreign.present(env.offline_image) and not force:
            return Outcome(iid, env.offline_image, already=True)
        try:
            name = envbuild.build(row, find_clone(repos, row["repo"]), plan, env, progress, locks)
        except BenchmarkError as exc:
            return Outcome(iid, None, str(exc), seconds=time.monotonic() - start)
        return Outcome(iid, name, seconds=time.monotonic() - start)

    outcomes = []
    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="dgm-env-build") as pool:
        for future in as_completed([pool.submit(one, row) for row in rows]):
            outcome = future.result()
            with lock:
                tally.done += 1
                outcomes.append(outcome)
                on_done(outcome, tally)
    order = {row["instance_id"]: i for i, row in enumerate(rows)}
    return sorted(outcomes, key=lambda o: order[o.instance_id])


def disk_report(names: list[str]) -> list[str]:
    """What the named instance images take on disk: the layers below them (each once,
    with how many of the instances share it) and their own layers. Docker and bwrap use
    the same folders, so this is the disk of both."""
    if not names:
        return []
    built = {b.name: b for b in envlayers.images(foreign.client())}
    instances = [built[n] for n in names if n in built]
    below: dict[str, set[str]] = {}
    for item in instances:
        parent = item.parent
        while parent in built:
            below.setdefault(parent, set()).add(item.name)
            parent = built[parent].parent
    lines = [
        f"  {name}: {built[name].own_bytes / MB:.0f} MB, shared by {len(users)} of these instances"
        for name, users in sorted(below.items(), key=lambda kv: (built[kv[0]].kind != "base", kv[0]))
    ]
    own = [item.own_bytes for item in instances]
    if own:
        lines.append(
            f"  instances' own layers: {len(own)}, {sum(own) / MB:.0f} MB in all"
            f" (median {statistics.median(own) / MB:.1f} MB, largest {max(own) / MB:.1f} MB)"
        )
    total = sum(built[n].own_bytes for n in below) + sum(own)
    lines.append(f"  {total / MB:.0f} MB in all, for docker and bwrap together (bwrap runs docker's layers)")
    return lines
