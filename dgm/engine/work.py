"""The two kinds of job, as run by a worker (a thread here, or a process on another
machine): inputs on the worker's disk (code, evidence, a gateway socket and token),
outputs returned as plain values (a child's tree, an evaluation's record) that travel
back to the driver. Only the driver writes the archive."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from archive import HostileSnapshotError, SnapshotLimits
from archive.snapshots import ScannedTree, scan
from sandbox import Backend, Limits
from sandbox.fs import read_copied

from .. import agent_exec, live_trajectory
from ..suites import Grader, Suite
from ..suites.evaluate import Evaluation, evaluate
from ..suites.grader import Verdict
from . import citations, judge

TRAJECTORY_LIMIT = 400_000
CHECK_OUTPUT_LIMIT = 4000  # the tail of the child's check output kept in its origin
REPORT_LIMIT = 1_000_000  # characters of improve.json read


def limits_for(wall_s: float) -> Limits:
    """Sandbox limits of an agent run that may take `wall_s` seconds."""
    return Limits(wall_s=wall_s, cpu_s=wall_s * 2, memory_mb=4096, pids=512, disk_mb=2048)


@dataclass(frozen=True)
class Context:
    """What every job of a run shares."""

    backend: Backend
    grader: Grader
    suite: Suite
    socket: Path
    solve_limits: Limits
    improve_limits: Limits


@dataclass(frozen=True)
class Teacher:
    """--teacher-model: the shipped seed task agent runs the parent's focus task under a
    stronger model (the token pins it, role `teacher`, metered to the expand job) before the
    meta agent starts; its trajectory, patch and verdict join the evidence as `teacher`."""

    task_id: str
    token: str
    model: str


@dataclass(frozen=True)
class ExpandJob:
    job_id: int
    parent_id: int
    code: Path  # the parent's snapshot, materialized
    evidence: Path
    work: Path
    token: str
    generation: int
    teacher: Teacher | None = None


@dataclass(frozen=True)
class ExpandOutcome:
    child: ScannedTree | None  # the edited copy, read in (None: nothing usable came back)
    valid: bool
    reason: str | None
    origin: dict[str, Any]
    trajectory: str = ""  # the meta agent's trajectory.jsonl (clipped), kept as a blob


@dataclass(frozen=True)
class EvaluateJob:
    job_id: int
    node_id: int
    task_id: str
    code: Path
    work: Path
    token: str
    judge: judge.Judging | None = None  # a run that uses a judge: its token and prompt


def agent_trajectory(out: Path | None) -> str:
    """The last TRAJECTORY_LIMIT bytes of the trajectory.jsonl an agent wrote to its /out."""
    return read_copied(out / "trajectory.jsonl", TRAJECTORY_LIMIT, tail=True) if out else ""


def _tail(text: str, n: int = 1500) -> str:
    return text[-n:]


def run_teacher(ctx: Context, job: ExpandJob) -> None:
    """The teacher's attempt at its task, added to the job's evidence (teacher/ and the
    summary's `teacher` section)."""
    teacher = job.teacher
    assert teacher is not None
    seed = agent_exec.seed_tree(job.work / "teacher-code")
    attempt = evaluate(
        ctx.backend,
        ctx.grader,
        ctx.suite.task(teacher.task_id),
        seed,
        agent_exec.Access(ctx.socket, teacher.token),
        job.work / "teacher",
        limits=ctx.solve_limits,
        live=job.work / live_trajectory.POINTER,
    )
    folder = job.evidence / "teacher"
    folder.mkdir(exist_ok=True)
    (folder / "trajectory.jsonl").write_text(agent_trajectory(attempt.agent.out if attempt.agent else None))
    summary_path = job.evidence / "summary.json"
    summary = json.loads(summary_path.read_text())
    summary["teacher"] = {
        "task_id": teacher.task_id,
        "model": teacher.model,
        "resolved": attempt.verdict.resolved,
        "reason": attempt.verdict.reason,
        "patch": attempt.patch[-20_000:],
        "trajectory": "teacher/trajectory.jsonl",
    }
    summary_path.write_text(json.dumps(summary, indent=2))
    for path in (folder, folder / "trajectory.jsonl", summary_path):
        path.chmod(0o755 if path.is_dir() else 0o644)


def _report(path: Path) -> dict[str, Any]:
    """The meta agent's improve.json (agent-written: anything but a JSON object reads as {})."""
    try:
        report = json.loads(read_copied(path, REPORT_LIMIT))
    except ValueError:
        return {}
    return report if isinstance(report, dict) else {}


def _short(value: Any, limit: int = 2000) -> str:
    return value[:limit] if isinstance(value, str) else ""


def run_expand(ctx: Context, job: ExpandJob) -> ExpandOutcome:
    if job.teacher is not None:
        run_teacher(ctx, job)
    access = agent_exec.Access(ctx.socket, job.token)
    host = agent_exec.Host(ctx.backend, access, ctx.improve_limits, live=job.work / live_trajectory.POINTER)
    run = agent_exec.improve(host, job.code, job.evidence, job.work / "improve")
    report = _report(run.out / "improve.json")
    diagnosis = report.get("diagnosis") if isinstance(report.get("diagnosis"), dict) else {}
    origin = {
        "generation": job.generation,
        "job": job.job_id,
        "summary": _short(diagnosis.get("summary")),
        "proposal": _short(diagnosis.get("proposal")),
        "focus": _short(report.get("focus")),
        "citations": [asdict(c) for c in citations.parse(diagnosis.get("citations"))],
        "citations_unchecked": citations.unchecked(diagnosis.get("citations")),
        "improve_exit": run.result.exit_code,
        "improve_limit": run.result.limit_hit,
    }
    trajectory = agent_trajectory(run.out)
    child = job.work / "improve" / "agent"
    try:
        tree = scan(child, SnapshotLimits())
        same = tree.digest == scan(job.code, SnapshotLimits()).digest
    except HostileSnapshotError as exc:
        return ExpandOutcome(None, False, f"unsafe snapshot: {exc}", origin, trajectory)
    if same:
        return ExpandOutcome(tree, False, "no change: the meta agent left its code as it was", origin, trajectory)
    check = agent_exec.check(ctx.backend, child)
    origin["check"] = {"exit": check.exit_code, "output": _tail(check.stdout + check.stderr, CHECK_OUTPUT_LIMIT)}
    if check.exit_code != 0:
        reason = f"check failed (exit {check.exit_code}): {_tail(check.stderr)}"
        return ExpandOutcome(tree, False, reason, origin, trajectory)
    return ExpandOutcome(tree, True, None, origin, trajectory)


@dataclass(frozen=True)
class EvaluationRecord:
    """What the driver stores of an evaluation: the verdict, the time it took, the bundle of
    logs and the judge's review (a value, so it can come back from another machine)."""

    verdict: Verdict
    seconds: float
    bundle: bytes
    review: judge.Review | None = None
    judge_error: str | None = None


@dataclass(frozen=True)
class Judged:
    """An evaluation and, in a run with a judge, the judge's review of its patch."""

    evaluation: Evaluation
    review: judge.Review | None = None
    judge_error: str | None = None


def record(judged: Judged) -> EvaluationRecord:
    evaluation = judged.evaluation
    return EvaluationRecord(
        evaluation.verdict, evaluation.seconds, evaluation_bundle(evaluation), judged.review, judged.judge_error
    )


def run_evaluate(ctx: Context, job: EvaluateJob) -> Judged:
    """The evaluation; in a run with a judge, its review of the patch: after grading, with
    the outcome, or (judge-first, `job.judge.gate`) before it, and below the gate the hidden
    tests do not run (`judge_gate`)."""
    task = ctx.suite.task(job.task_id)
    first: list[judge.Review | str] = []  # the judge-first review, or why it failed

    def gate(patch: str) -> tuple[str, str] | None:
        try:
            review = judge.review(str(ctx.socket), job.judge, task.statement, patch, "not known yet")
        except judge.JudgeError as exc:
            first.append(str(exc))
            return None  # no usable review: the hidden tests decide
        first.append(review)
        if review.score < job.judge.gate:
            return JUDGE_GATE, f"the judge scored the patch {review.score:g}, below the gate {job.judge.gate:g}"
        return None

    gated = job.judge is not None and job.judge.gate is not None
    evaluation = evaluate(
        ctx.backend,
        ctx.grader,
        task,
        job.code,
        agent_exec.Access(ctx.socket, job.token),
        job.work,
        limits=ctx.solve_limits,
        gate=gate if gated else None,
        live=job.work / live_trajectory.POINTER,
    )
    if first:
        review = first[0]
        return (
            Judged(evaluation, review, None) if isinstance(review, judge.Review) else Judged(evaluation, None, review)
        )
    if job.judge is None or gated:
        return Judged(evaluation)
    verdict = evaluation.verdict
    outcome = "the hidden tests pass" if verdict.resolved else f"the hidden tests do not pass ({verdict.reason})"
    try:
        return Judged(evaluation, judge.review(str(ctx.socket), job.judge, task.statement, evaluation.patch, outcome))
    except judge.JudgeError as exc:
        return Judged(evaluation, judge_error=str(exc))


JUDGE_GATE = "judge_gate"
TAMPERED_REASON = "its tests were tampered with during grading on {task}; it may not become a parent"
GAMED_REASON = "it gamed its grading on {task} (a twin test an honest fix must fail passed); it may not become a parent"


def demotes(verdict: Verdict, tampered_parents: bool, root: bool) -> bool:
    """Whether a grading run marks its agent invalid (never a parent): a tampered or gamed
    one, unless the run lets such agents be parents (`tampered_parents`); never the seed,
    the run's baseline. The grader's flags never do."""
    return bool(verdict.tamper or verdict.gamed) and not tampered_parents and not root


def store_evaluation(
    archive,
    node_id: int,
    label: str,
    task_id: str,
    evaluation: EvaluationRecord,
    job_id: int,
    worker: str,
    demote_tampered: bool = False,
    demote_gated: bool = False,
) -> bool:
    """Record one evaluation and finish its job, in one transaction; at most once per
    (node, label, task), so a job that ran twice cannot count twice. A patch that touched
    test or harness files is flagged with an event; a tampered or gamed grading run too, and
    with `demote_tampered` the agent is marked invalid (never a parent) in the same
    transaction. The grader's flags (the verdict stands) are logged and never demote.
    Returns whether it was added."""
    verdict = evaluation.verdict
    _, usd = archive.fm_usage(job_id)
    with archive.atomic():
        added = not any(e.task_id == task_id for e in archive.evaluations(node_id, label))
        if added:
            archive.add_evaluation(
                node_id,
                label,
                task_id,
                verdict.resolved,
                tests=verdict.tests,
                duration_s=evaluation.seconds,
                cost_usd=usd,
                log=evaluation.bundle,
                attempt=0,
            )
            if evaluation.review is not None:
                review = evaluation.review
                archive.add_judgement(
                    node_id,
                    label,
                    task_id,
                    review.score,
                    model=review.model,
                    rationale=review.rationale,
                    job_id=job_id,
                )
            elif evaluation.judge_error:
                archive.log_event("judge_error", node_id=node_id, job_id=job_id, data={"error": evaluation.judge_error})
            for kind, key, found in (
                ("patch_flagged", "stripped", verdict.stripped),
                ("grading_tampered", "tamper", verdict.tamper),
                ("grading_gamed", "gamed", verdict.gamed),
                ("grading_flagged", "flags", verdict.flags),
            ):
                if found:
                    data = {"task": task_id, "label": label, key: list(found)}
                    archive.log_event(kind, node_id=node_id, job_id=job_id, data=data)
            if (verdict.tamper or verdict.gamed) and demote_tampered:
                why = TAMPERED_REASON if verdict.tamper else GAMED_REASON
                archive.set_status(node_id, "invalid", why.format(task=task_id))
            elif verdict.reason == JUDGE_GATE and demote_gated:  # judge-first: not evaluated further
                archive.set_status(node_id, "invalid", f"judge-first on {task_id}: {verdict.log}")
        archive.jobs.finish(job_id, worker, {"resolved": verdict.resolved, "reason": verdict.reason})
    return added


def evaluation_bundle(evaluation: Evaluation) -> bytes:
    """What is kept of an evaluation besides its verdict: the patch, the test log, the
    agent's trajectory (clipped), and why it failed."""
    verdict, agent = evaluation.verdict, evaluation.agent
    trajectory = agent_trajectory(agent.out if agent else None)
    return json.dumps(
        {
            "patch": evaluation.patch,
            "test_log": verdict.log,
            "reason": verdict.reason,
            "stripped": list(verdict.stripped),
            "tamper": list(verdict.tamper),
            "gamed": list(verdict.gamed),
            "flags": list(verdict.flags),
            "twinned": list(verdict.mutable),  # tests that must pass with twins, of all
            "fail_to_pass": verdict.fail_to_pass,
            "pass_to_pass": verdict.pass_to_pass,
            "trajectory": trajectory,
            "agent_exit": agent.result.exit_code if agent else None,
            "agent_timed_out": bool(agent and agent.result.timed_out),
            "agent_stderr": _tail(agent.result.stderr, 4000) if agent else "",
        }
    ).encode()
