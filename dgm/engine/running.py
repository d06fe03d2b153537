"""The jobs a run has in flight, as its archive records them (`dgm status`, `dgm serve`):
each one's kind, what it works on, how long it has run, and the model calls recorded for
it so far. A call is recorded when it ends, so one still in flight shows in the live
progress of `dgm evolve` (read from the gateway), not here. A running job whose heartbeat
is old belongs to a run that stopped without saying so (killed): the next `dgm evolve`
puts it back in the queue."""

from __future__ import annotations

import json
import time
from typing import Any

from archive import Archive

from .progress import duration
from .text import printable

STALE_S = 60.0  # a running job not heartbeated for this long: its run has likely stopped


def job_what(kind: str, payload: dict[str, Any]) -> str:
    """What a job works on: `node 3`, `node 3 on TASK`, `node 3 on TASK (LABEL)`."""
    if kind == "expand":
        return f"node {payload.get('parent')}"
    what = f"node {payload.get('node')} on {payload.get('task')}"
    return f"{what} ({payload['label']})" if kind == "transfer" and payload.get("label") else what


def running_jobs(archive: Archive, now: float | None = None) -> list[dict[str, Any]]:
    """The running jobs, oldest first, with their age and the calls recorded for each."""
    now = time.time() if now is None else now
    jobs = archive.db.execute(
        "SELECT id, kind, payload, started_at, heartbeat_at, attempts FROM jobs WHERE state = 'running' ORDER BY id"
    ).fetchall()
    if not jobs:
        return []
    ids = [row[0] for row in jobs]
    calls = {
        job_id: (n, tokens, usd, last)
        for job_id, n, tokens, usd, last in archive.db.execute(
            "SELECT job_id, count(*), sum(prompt_tokens + completion_tokens), sum(cost_usd), max(created_at) "
            f"FROM fm_calls WHERE job_id IN ({', '.join('?' for _ in ids)}) GROUP BY job_id",
            ids,
        )
    }
    out = []
    for job_id, kind, payload, started, beat, attempts in jobs:
        n, tokens, usd, last = calls.get(job_id, (0, 0, 0.0, None))
        out.append(
            {
                "job": job_id,
                "kind": kind,
                "what": job_what(kind, json.loads(payload)),
                "attempt": attempts,
                "age_s": round(now - started, 1) if started is not None else None,
                "heartbeat_s": round(now - beat, 1) if beat is not None else None,
                "calls": n,
                "tokens": int(tokens),
                "usd": round(usd, 6),
                "last_call_s": round(now - last, 1) if last is not None else None,
            }
        )
    return out


def job_text(job: dict[str, Any]) -> str:
    """One running job as a line: `job 7 evaluate node 3 on TASK: 4m12s, 3 model calls
    recorded, 5120 tokens, $0.0012; the last ended 12s ago`."""
    age = duration(job["age_s"]) if job["age_s"] is not None else "?"
    text = (
        f"job {job['job']} {job['kind']} {printable(job['what'][:160])}: running {age}, "
        f"{job['calls']} model calls recorded, {job['tokens']} tokens, ${job['usd']:.4f}"
    )
    if job["last_call_s"] is not None:
        text += f"; the last ended {duration(job['last_call_s'])} ago"
    if job["heartbeat_s"] is not None and job["heartbeat_s"] > STALE_S:
        text += f" (no heartbeat for {duration(job['heartbeat_s'])}: its run may have stopped)"
    return text


def running_lines(jobs: list[dict[str, Any]]) -> list[str]:
    """`dgm status`'s lines for the running jobs (none when nothing runs)."""
    return [f"{'running' if i == 0 else '':13}{job_text(job)}" for i, job in enumerate(jobs)]
