"""The phantom-failure guard: every citation in a meta agent's diagnosis is checked against
the archive, and a diagnosis that cites something that did not happen is `phantom`.

A citation is what the diagnosis rests on (the seed asks for them in its `citations` field):

    {"task_id": "...", "claim": "failed" | "resolved", "test": "a test id", "log": "a line",
     "node": N}

`node` is the agent whose results are cited: the parent (default), or a member of its group
whose evidence the meta agent was given. A citation is refuted when that agent was never
evaluated on the task; when it claims a failure and the agent resolved the task every time
(or claims a success and it never did); when it names a test that is not among the
task's recorded tests for that agent, or one that passed where it claims a failure; or when
its log line is in none of the recorded test logs and trajectories of those evaluations.

Citations are agent-written: parsed leniently and bounded (count and length), never
trusted. Policy (`--phantom`): `flag` records the refutation and the child may still be a
parent; `reject` also marks it invalid, so it never becomes one."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ..suites.grader import PASSING

if TYPE_CHECKING:
    from archive import Archive

POLICIES = {
    "flag": "a phantom diagnosis is recorded and shown; the child may still be a parent",
    "reject": "a phantom diagnosis makes its child invalid: it never becomes a parent",
}
MAX_CITATIONS = 20
MAX_FIELD = 500
FAILED, RESOLVED = "failed", "resolved"
CLAIMS = {"failed": FAILED, "fail": FAILED, "failure": FAILED, "timeout": FAILED, "error": FAILED}
CLAIMS |= {"resolved": RESOLVED, "passed": RESOLVED, "pass": RESOLVED, "success": RESOLVED}


@dataclass(frozen=True)
class Citation:
    task_id: str
    claim: str | None  # failed | resolved | None (the task is cited, no outcome claimed)
    test: str | None
    log: str | None
    node: int | None  # None: the parent


@dataclass(frozen=True)
class Checked:
    citation: Citation
    confirmed: bool
    why: str

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self.citation), "confirmed": self.confirmed, "why": self.why}


def _text(value: Any) -> str | None:
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return None
    text = "".join(c if c.isprintable() else " " for c in str(value)).strip()
    return text[:MAX_FIELD] or None


def parse(raw: Any) -> list[Citation]:
    """The well-formed citations of a diagnosis's `citations` field (others are dropped)."""
    out = []
    for item in raw[:MAX_CITATIONS] if isinstance(raw, list) else []:
        if not isinstance(item, dict) or not _text(item.get("task_id")):
            continue
        claim = _text(item.get("claim"))
        node = item.get("node")
        out.append(
            Citation(
                task_id=_text(item["task_id"]),
                claim=CLAIMS.get(claim.lower(), claim) if claim else None,
                test=_text(item.get("test")),
                log=_text(item.get("log")),
                node=node if isinstance(node, int) and not isinstance(node, bool) else None,
            )
        )
    return out


def _same_test(name: str, cited: str) -> bool:
    """A recorded test id and a cited one: equal, or the cited one is its tail from a
    path or name boundary (`test_x`, `test_a.py::test_x`)."""
    return name == cited or name.endswith(("::" + cited, "/" + cited))


def _squash(text: str) -> str:
    return " ".join(text.split())


def unchecked(raw: Any) -> int:
    """How many citations of a diagnosis's `citations` field lie past the cap (never parsed:
    a phantom hidden behind MAX_CITATIONS true ones must not pass)."""
    return max(0, len(raw) - MAX_CITATIONS) if isinstance(raw, list) else 0


def check(
    archive: Archive, parent: int, citations: list[Citation], allowed: set[int] | None = None, beyond_cap: int = 0
) -> list[Checked]:
    """Each citation against the cited agent's recorded evaluations. `allowed`: the agents
    whose evidence the meta agent was given (default: only the parent). `beyond_cap`:
    citations past the cap, refuted as unchecked."""
    from .evidence import bundle

    allowed = (allowed or set()) | {parent}
    recorded: dict[int, list] = {}  # each cited agent's evaluations, read once
    out = []
    for c in citations:
        node = parent if c.node is None else c.node
        if node not in allowed:
            out.append(Checked(c, False, f"agent {node}'s results were not in this meta agent's evidence"))
            continue
        if node not in recorded:
            recorded[node] = archive.evaluations(node)
        evals = [e for e in recorded[node] if e.task_id == c.task_id]
        out.append(_check_one(c, node, evals, lambda e: bundle(archive, e.log_blob)))
    if beyond_cap:
        past = Citation(f"(citations {MAX_CITATIONS + 1}-{MAX_CITATIONS + beyond_cap})", None, None, None, None)
        out.append(Checked(past, False, f"{beyond_cap} citation(s) past the first {MAX_CITATIONS} were not checked"))
    return out


def _check_one(c: Citation, node: int, evals: list, logs) -> Checked:
    if not evals:
        return Checked(c, False, f"agent {node} was never evaluated on {c.task_id}")
    resolved = [e.resolved for e in evals]
    if c.claim == FAILED and all(resolved):
        return Checked(c, False, f"agent {node} resolved {c.task_id} in all {len(evals)} evaluation(s)")
    if c.claim == RESOLVED and not any(resolved):
        return Checked(c, False, f"agent {node} never resolved {c.task_id} ({len(evals)} evaluation(s))")
    if c.claim not in (None, FAILED, RESOLVED):
        return Checked(c, False, f"unknown claim {c.claim!r} (failed or resolved)")
    if c.test:
        statuses = [status for e in evals for name, status in e.tests.items() if _same_test(name, c.test)]
        if not statuses:
            return Checked(c, False, f"no test {c.test!r} in the recorded results of {c.task_id}")
        if c.claim == FAILED and all(s in PASSING for s in statuses):
            return Checked(c, False, f"test {c.test!r} passed in every evaluation of agent {node}")
    if c.log:
        wanted = _squash(c.log)
        texts = (_squash(f"{info.get('test_log', '')}\n{info.get('trajectory', '')}") for info in map(logs, evals))
        if not any(wanted in text for text in texts):
            return Checked(c, False, f"the log line is in no recorded output of agent {node} on {c.task_id}")
    return Checked(c, True, "matches the archive")


def refuted(checked: list[Checked]) -> list[Checked]:
    return [c for c in checked if not c.confirmed]


def summary(checked: list[Checked]) -> str:
    """One line: the first refutation (for a node's status reason and `show`)."""
    bad = refuted(checked)
    if not bad:
        return ""
    first = bad[0]
    more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
    return f"phantom diagnosis: it cites {first.citation.task_id}: {first.why}{more}"
