"""What `dgm serve` shows of the jobs in flight: the running jobs (from the archive's job
table, with the calls recorded for each so far) and the trajectory of the agent a job is
running now, followed as it is written (`dgm.live_trajectory`). Bounded: the last
LIVE_BYTES of the file, and of those the last LIVE_STEPS lines. Agent-written text goes
out as data, exactly like a recorded trajectory (`watch.messages`); the page shows it as
text, never as markup."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from archive import Archive

from .. import live_trajectory
from ..engine.running import job_what, running_jobs
from .data import InspectError

LIVE_BYTES = 200_000  # the most of a live trajectory read, from its end
LIVE_STEPS = 200  # the most lines of it sent to the page


def jobs(archive: Archive, run_dir: Path) -> dict[str, Any]:
    """The running jobs, each saying whether an agent of it runs on this machine now (its
    trajectory can then be followed)."""
    found = running_jobs(archive)
    for job in found:
        job["live"] = (live_trajectory.job_folder(run_dir, job["job"]) / live_trajectory.POINTER).is_file()
    return {"jobs": found}


def trajectory(archive: Archive, run_dir: Path, job_id: int, parse) -> dict[str, Any]:
    """The tail of the trajectory the agent of job `job_id` is writing now; `parse` turns
    its lines into the page's messages. A job that runs no agent now answers no messages
    and says so (`following`: False)."""
    row = archive.db.execute("SELECT kind, payload, state FROM jobs WHERE id = ?", [job_id]).fetchone()
    if row is None:
        raise InspectError(f"no job {job_id} in this run")
    kind, payload, state = row
    answer: dict[str, Any] = {"job": job_id, "kind": kind, "what": job_what(kind, json.loads(payload)), "state": state}
    got = live_trajectory.tail(live_trajectory.job_folder(run_dir, job_id), LIVE_BYTES) if state == "running" else None
    if got is None:
        return {**answer, "following": False, "bytes": 0, "lines_not_shown": 0, "cut": False, "messages": []}
    data, size = got
    text = data.decode("utf-8", "replace")
    cut = size > len(data)
    if cut:  # the first line read is most likely the end of a longer one: left out
        text = text.split("\n", 1)[1] if "\n" in text else ""
    lines = [line for line in text.splitlines() if line.strip()]
    shown = lines[-LIVE_STEPS:]
    return {
        **answer,
        "following": True,
        "bytes": size,
        "lines_not_shown": len(lines) - len(shown),
        "cut": cut,
        "messages": parse("\n".join(shown)),
    }
