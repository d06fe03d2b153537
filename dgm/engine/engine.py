"""The evolution loop (ask/tell over the archive's job table).

The driver alone writes the archive. It asks the policy for the next job whenever a
worker is free, records the job before running it, hands it to the executor (a local
thread pool, or a Ray cluster) as plain values, and records the outcome and the job's end
in one transaction. A killed run resumes from the job table:
queued jobs run first, running ones are re-queued, nothing completed is redone. Each
decision draws from an RNG seeded by (run seed, job number), so one worker and a
deterministic upstream give the same archive, killed and resumed or not."""

from __future__ import annotations

import concurrent.futures
import errno
import fcntl
import logging
import os
import sqlite3
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from archive import Archive, ArchiveError, HostileSnapshotError, Job
from archive.snapshots import scan

from .. import agent_exec, agent_source
from ..gateway import Budget, Gateway, Limits, Prices, RetryPolicy, Upstream
from ..suites import Grader, load_suite
from . import citations, evidence, judge, work
from .admission import make_admission
from .config import RunConfig, check_judge_prompt
from .jobs import EvaluateRequest, Executor, ExpandRequest, RunEnv, WorkerLost
from .judge import Judging
from .node import EVIDENCE_LIMITS
from .policies import Evaluate, Expand, InFlight
from .progress import Progress, RunningJob
from .scheduler import Scheduler
from .status import task_order
from .utilities import Utility, make_utility
from .view import View, ViewCache

log = logging.getLogger(__name__)
HEARTBEAT_S = 10.0
POLL_S = 0.5
ENGINE_JOBS = ("expand", "evaluate")  # other kinds (transfer evals) belong to other commands


def _disk_full(exc: BaseException) -> bool:
    while exc is not None:
        if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
            return True
        if isinstance(exc, sqlite3.OperationalError) and "full" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


class EngineError(Exception):
    """The run cannot start or go on; the message says why."""


@dataclass
class Running:
    job: Job
    action: Expand | Evaluate
    token: str
    future: concurrent.futures.Future
    extra_tokens: tuple[str, ...] = ()  # e.g. the teacher's, revoked with the job's
    started: float = field(default_factory=time.monotonic)

    def shown(self) -> RunningJob:
        """The job as the progress line shows it."""
        action = self.action
        what = f"node {action.parent}" if isinstance(action, Expand) else f"node {action.node} on {action.task}"
        return RunningJob(self.job.id, self.job.kind, what, self.started)


@dataclass
class RunState:
    """When the run started, once decided why it stops, and the jobs running now."""

    started: float = field(default_factory=time.monotonic)
    stop_reason: str | None = None
    running: tuple[RunningJob, ...] = ()


class Engine:
    def __init__(
        self,
        run_dir: Path,
        config: RunConfig,
        upstream: Upstream,
        backend,
        progress: Progress | None = None,
        *,
        executor: Executor,
    ):
        """`executor` runs the jobs (`dgm.executors.for_config(config)` builds the one the
        config names: a local thread pool of `config.workers`, or a Ray cluster)."""
        self.run_dir = Path(run_dir)
        self.executor = executor
        self.config = config
        self.upstream = upstream
        self.backend = backend
        self.progress = progress or Progress()
        self.worker = f"driver-{os.getpid()}"
        self.running: dict[int, Running] = {}
        self.state = RunState()
        # The run's archive file has two connections in this process: the driver's and the
        # gateway's (written from its request threads). The engine owns this lock and lends it
        # to the gateway, which takes it around every use of its connection; the driver takes
        # it to record a job's outcome, so those writes never interleave with the gateway's.
        self.archive_lock = threading.Lock()
        self.scheduler: Scheduler | None = None  # from the config, when the run starts
        self.cache: ViewCache | None = None  # the archive's picture, loaded when the run starts
        self.judge_prompt: str | None = None  # the judge's prompt, in a run whose utilities use one
        self.stop_request: str | None = None
        self.force_stop = False

    def _run_budget_spent(self, detail: str) -> None:
        """The gateway's run budget can pay for no further call (called from its threads):
        start no more jobs; running ones finish as on any stop."""
        if not self.state.stop_reason:
            self.state.stop_reason = f"--budget-usd {self.config.budget_usd:g} spent: {detail}"

    def request_stop(self, reason: str, force: bool = False) -> None:
        """Stop the run (safe from a signal handler): no new jobs; in-flight jobs may finish
        (up to the grace period), or with `force` are handed back to the queue at once and
        their sandboxes closed. A later `dgm evolve` resumes."""
        self.stop_request = reason
        self.force_stop = self.force_stop or force

    # --- set-up ----------------------------------------------------------------------
    def _lock(self) -> int:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.run_dir / ".lock", os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise EngineError(f"another dgm process is running {self.run_dir}") from None
        return fd

    def _seed(self, archive: Archive, ctx: work.Context) -> None:
        """Node 1: the shipped seed agent, or `seed_agent` (a folder or RUN:NODE), once it
        passes its own check; where it came from is recorded in its origin."""
        if archive.nodes():
            return
        spec = self.config.seed_agent
        with tempfile.TemporaryDirectory(prefix="dgm-seed-", dir=self.run_dir) as tmp:
            Path(tmp).chmod(0o755)
            try:
                if spec is None:
                    source = agent_source.AgentSource(agent_exec.seed_tree(Path(tmp) / "seed"), {"shipped": True})
                else:
                    source = agent_source.resolve(spec, Path(tmp))
                agent_source.check(ctx.backend, source, f"the seed agent {spec or '(shipped)'}")
            except agent_source.AgentSourceError as exc:
                raise EngineError(str(exc)) from exc
            origin = {"generation": 0, "seed": True, "seed_agent": source.provenance}
            archive.add_child(None, source.tree, status="valid", origin=origin)
        self.progress.note(f"seed agent {spec or '(shipped)'} stored as node 1")

    # --- the loop --------------------------------------------------------------------
    def run(self) -> dict[str, Any]:
        lock = self._lock()
        cfg = self.config
        try:
            suite = load_suite(cfg.benchmark)
            if not suite.tasks:
                raise EngineError(f"benchmark {cfg.benchmark} has no tasks")
            tasks = task_order([t.id for t in suite.tasks], cfg.seed, {t.id: t.difficulty for t in suite.tasks})
            with Archive.for_run(self.run_dir, create=True) as archive:
                archive.save_run_config(cfg.to_dict(), cfg.seed)
                grader = Grader(self.backend, self.run_dir / "cache" / "grade")
                retry = RetryPolicy(attempts=cfg.fm_attempts, base_s=cfg.fm_backoff_s, timeout_s=cfg.fm_timeout_s)
                gateway = Gateway(
                    self.upstream,
                    archive.path,
                    run_budget=Budget(usd=cfg.budget_usd),
                    seed=cfg.seed,
                    model=cfg.model,
                    retry=retry,
                    prices=Prices(cfg.prices),
                    limits=Limits(cfg.max_call_tokens, cfg.max_request_bytes, cfg.job_concurrency),
                    on_run_budget_spent=self._run_budget_spent,
                    archive_lock=self.archive_lock,
                )
                with gateway as gw:
                    ctx = work.Context(
                        self.backend,
                        grader,
                        suite,
                        gw.socket_path,
                        solve_limits=work.limits_for(cfg.solve_timeout_s),
                        improve_limits=work.limits_for(cfg.improve_timeout_s),
                    )
                    self.executor.start(RunEnv(self.run_dir, archive, cfg, ctx))
                    try:
                        self.progress.note(f"jobs run on {self.executor.describe()}")
                        self._seed(archive, ctx)
                        # Every running job lost its driver (the run lock makes this process the only one).
                        requeued = [j for j in archive.jobs.recover_stale(timeout_s=-1) if j.kind in ENGINE_JOBS]
                        if requeued:
                            self.progress.note(f"resuming: {len(requeued)} interrupted job(s) re-queued")
                        # what decides the model's speed (threads, context, ...), where the upstream says
                        settings = getattr(self.upstream, "settings", dict)()
                        archive.log_event("run_started", data={"pid": os.getpid(), "upstream": settings})
                        self._loop(archive, gw, ctx, tasks)
                        settings = getattr(self.upstream, "settings", dict)()
                        archive.log_event("run_stopped", data={"reason": self.state.stop_reason, "upstream": settings})
                    except (OSError, sqlite3.OperationalError) as exc:
                        self.executor.shutdown(cancel=True)
                        if not _disk_full(exc):
                            raise
                        raise EngineError(
                            f"the disk holding {self.run_dir} is full ({exc}); everything recorded so far is kept. "
                            f"Free some space and run `dgm evolve --run {self.run_dir}` again to resume."
                        ) from exc
                    finally:
                        self.executor.shutdown()
                    return self._summary(archive, gw, tasks)
        finally:
            os.close(lock)

    def _workers(self, view) -> int:
        """Jobs to run at once: the run's workers, except where the model decodes on this
        machine's cores. Jobs at once share those cores, and on one thread two jobs decode
        no faster in sum than one (17.4 tokens/s against 18.8), each at half speed, nearer
        its time limit. So there: one job until the first evaluation is recorded (a second
        only delays the run's first score), then no more jobs than decoding threads."""
        if not getattr(self.upstream, "computes_here", False):
            return self.config.workers
        if view.evaluations() == 0:
            return 1
        return max(1, min(self.config.workers, getattr(self.upstream, "threads", self.config.workers)))

    def _loop(self, archive: Archive, gw: Gateway, ctx: work.Context, tasks: tuple[str, ...]) -> None:
        cfg = self.config
        self.scheduler = Scheduler.for_config(cfg)
        self.judge_prompt = self._judge_prompt(archive)
        self.cache = ViewCache.load(archive, cfg.benchmark, tasks, make_admission(cfg.admission), self._epoch(archive))
        last_beat = time.monotonic()
        stopping_since: float | None = None
        while True:
            view = self.cache.view()
            stop = self.stop_request or self._stop_reason(view, gw)
            if stop and not self.state.stop_reason:
                self.state.stop_reason = stop
                self.progress.note(f"stopping: {stop}")
            while not self.state.stop_reason and len(self.running) < self._workers(view):
                job = self._next_job(archive, view)
                if job is None:
                    break
                self._dispatch(archive, gw, ctx, job)
                view = self.cache.view()
            self.state.running = tuple(r.shown() for r in self.running.values())
            self.progress.update(view, self._flight(), gw, self.state)
            if not self.running:
                if not self.state.stop_reason:
                    self.state.stop_reason = self._idle_reason(view, gw)
                return
            done, _ = concurrent.futures.wait(
                [r.future for r in self.running.values()],
                timeout=POLL_S,  # short, so a stop request is seen promptly
                return_when=concurrent.futures.FIRST_COMPLETED,
            )
            if self.state.stop_reason and not done:
                if stopping_since is None:
                    stopping_since = time.monotonic()
                    self.progress.note(f"waiting up to {cfg.grace_s:g}s for {len(self.running)} running job(s)")
                if self.force_stop or time.monotonic() - stopping_since > cfg.grace_s:
                    self._abandon(archive)
                    return
            for job_id in [j for j, r in self.running.items() if r.future in done]:
                self._finish(archive, gw, self.running.pop(job_id))
            if time.monotonic() - last_beat > HEARTBEAT_S:
                for r in self.running.values():
                    archive.jobs.heartbeat(r.job.id, self.worker)
                last_beat = time.monotonic()

    def _abandon(self, archive: Archive) -> None:
        """Hand running jobs back to the queue and close their sandboxes (a forced stop)."""
        for run in self.running.values():
            archive.jobs.release(run.job.id, self.worker, f"run stopped: {self.state.stop_reason}")
        closed = self.executor.shutdown(cancel=True)
        self.progress.note(
            f"{len(self.running)} running job(s) re-queued for the next run; {closed} sandbox(es) closed"
        )
        self.running.clear()

    def _flight(self) -> InFlight:
        expands = tuple(r.action for r in self.running.values() if isinstance(r.action, Expand))
        evals = frozenset(
            (r.action.node, r.action.task) for r in self.running.values() if isinstance(r.action, Evaluate)
        )
        return InFlight(expands, evals)

    def _stop_reason(self, view: View, gw: Gateway) -> str | None:
        """The first limit reached: dollars, hours, evaluations (any one ends the run)."""
        cfg = self.config
        if cfg.budget_usd is not None and gw.run_usage.usd >= cfg.budget_usd:
            return f"--budget-usd {cfg.budget_usd:g} spent"
        if cfg.max_hours is not None and time.monotonic() - self.state.started >= cfg.max_hours * 3600:
            return f"--max-hours {cfg.max_hours:g} reached"
        return self.scheduler.limit_reached(view)

    def _idle_reason(self, view: View, gw: Gateway) -> str:
        return self._stop_reason(view, gw) or self.scheduler.idle_reason(view)

    def _next_job(self, archive: Archive, view: View) -> Job | None:
        """A queued job (decided earlier, e.g. before a crash), else a new decision."""
        queued = [j for j in archive.jobs.list(state="queued") if j.kind in ENGINE_JOBS and j.id not in self.running]
        if not queued:
            action = self.scheduler.ask(view, self._flight(), decision=len(archive.jobs.list()))
            if action is None:
                return None
            if isinstance(action, Expand):
                payload = {"parent": action.parent, "generation": action.generation}
                if action.group:
                    payload["group"] = list(action.group)
                if action.second is not None:
                    payload["second"] = action.second
                archive.jobs.enqueue("expand", payload, max_attempts=self.config.job_attempts)
            else:
                payload = {"node": action.node, "task": action.task, "benchmark": self.config.benchmark}
                archive.jobs.enqueue("evaluate", payload, max_attempts=self.config.job_attempts)
        return archive.jobs.claim(self.worker, kinds=ENGINE_JOBS)

    def _dispatch(self, archive: Archive, gw: Gateway, ctx: work.Context, job: Job) -> None:
        if job.kind == "expand":
            parent = job.payload["parent"]
            group = tuple(job.payload.get("group", ()))
            second = job.payload.get("second")
            action: Expand | Evaluate = Expand(parent, job.payload.get("generation", 0), group, second)
            cfg = self.config
            token = gw.issue_token(
                job.id,
                parent,
                Budget(tokens=cfg.job_tokens),
                model=cfg.model_for("improve"),
                role="improve",
                roles={"diagnose": cfg.model_for("diagnose")},
            )
            usage = gw.run_usage
            budget = {
                "run_tokens_spent": usage.tokens,
                "run_usd_spent": round(usage.usd, 4),
                "usd_limit": self.config.budget_usd,
                "evals_limit": self.config.max_evals,
            }
            with tempfile.TemporaryDirectory(prefix="evidence-", dir=self.run_dir) as tmp:
                ev = evidence.build(
                    archive, ctx.suite, parent, self.config.benchmark, Path(tmp) / "e", budget, group, second
                )
                tree = scan(ev, EVIDENCE_LIMITS)
            snapshot = archive.node(parent).snapshot
            teacher = self._teacher(archive, gw, job.id, parent)
            request = ExpandRequest(job.id, parent, snapshot, tree, token, action.generation, teacher)
            extra = (teacher.token,) if teacher else ()
            with_group = f" with its group {', '.join(map(str, group))}" if group else ""
            with_second = f" recombined with node {second}" if second is not None else ""
            self.progress.note(f"job {job.id}: expand node {parent}{with_group}{with_second}")
        else:
            node, task = job.payload["node"], job.payload["task"]
            action = Evaluate(node, task)
            budget = Budget(tokens=self.config.job_tokens)
            token = gw.issue_token(job.id, node, budget, model=self.config.model_for("solve"), role="solve")
            judging, extra = None, ()
            if self.judge_prompt is not None:  # the judge's own token: its model, role judge, this job's meter
                judge_model = self.config.model_for("judge")
                judge_token = gw.issue_token(
                    job.id, node, Budget(tokens=self.config.job_tokens), model=judge_model, role="judge"
                )
                gate = self.config.judge_first if self._first_evaluation(node) else None
                judging, extra = Judging(judge_token, self.judge_prompt, gate), (judge_token,)
            request = EvaluateRequest(job.id, node, task, archive.node(node).snapshot, token, judging)
        future = self.executor.submit(request)
        self.running[job.id] = Running(job, action, token, future, extra)

    def _teacher(self, archive: Archive, gw: Gateway, job_id: int, parent: int) -> work.Teacher | None:
        """--teacher-model: the parent's first failed task (in the run's task order) for the
        teacher to attempt, with a token pinned to the teacher's model (role `teacher`,
        metered to this job); None without a teacher or a failure."""
        model = self.config.teacher_model
        if model is None:
            return None
        failed = {e.task_id for e in archive.evaluations(parent, self.config.benchmark) if not e.resolved}
        order = self.cache.tasks if self.cache else ()
        task = next((t for t in order if t in failed), None)
        if task is None:
            return None
        token = gw.issue_token(job_id, parent, Budget(tokens=self.config.job_tokens), model=model, role="teacher")
        return work.Teacher(task, token, model)

    def _finish(self, archive: Archive, gw: Gateway, run: Running) -> None:
        gw.revoke_token(run.token)
        for token in run.extra_tokens:
            gw.revoke_token(token)
        job = run.job
        try:
            outcome = run.future.result()
        except Exception as exc:
            if _disk_full(exc):
                archive.jobs.release(job.id, self.worker, "disk full")
                raise
            lost = isinstance(exc, WorkerLost)
            if not lost:
                log.exception("job %s failed", job.id)
            with self.archive_lock:  # a lost worker counts as an attempt, like a stale job
                failed = archive.jobs.fail(job.id, self.worker, f"{exc.__class__.__name__}: {exc}")
                kind = "worker_lost" if lost else "job_error"
                archive.log_event(kind, job_id=job.id, data={"error": str(exc), "state": failed.state})
            what = "lost its worker" if lost else "failed"
            self.progress.note(f"job {job.id} ({job.kind}) {what}: {exc} -> {failed.state}")
            return
        with self.archive_lock:  # the gateway writes fm_calls to the same file from its threads
            if isinstance(run.action, Evaluate):
                self._record_evaluation(archive, job, run.action, outcome)
            else:
                self._record_child(archive, job, run.action, outcome)

    def _record_evaluation(self, archive: Archive, job: Job, action: Evaluate, outcome) -> None:
        verdict = outcome.verdict
        root = action.node == self.cache.root
        demote = work.demotes(verdict, self.config.tampered_parents, root)
        gated = verdict.reason == work.JUDGE_GATE and not root
        if work.store_evaluation(
            archive, action.node, self.config.benchmark, action.task, outcome, job.id, self.worker, demote, gated
        ):
            judged = outcome.review.score if outcome.review is not None else None
            self.cache.add_result(action.node, action.task, verdict.resolved, judged)
            if demote or gated:
                self.cache.set_status(action.node, "invalid")
        self.progress.evaluated(action.node, action.task, verdict.resolved, verdict.reason, outcome.seconds)
        utility = self._epoch(archive)
        if utility != self.cache.utility:  # a boundary: the statistics, recomputed under the new utility
            self.cache = ViewCache.load(archive, self.config.benchmark, self.cache.tasks, self.cache.admission, utility)

    def _first_evaluation(self, node: int) -> bool:
        """Whether an evaluation of `node` now would be its first (judge-first gates it; never
        the seed's): none recorded and none in flight."""
        if node == self.cache.root or self.cache.nodes[node].n:
            return False
        return not any(isinstance(r.action, Evaluate) and r.action.node == node for r in self.running.values())

    def _judge_prompt(self, archive: Archive) -> str | None:
        """The judge's prompt, in a run whose utilities use a judge: the text stored in the
        archive when the run started (stored now, from --judge-prompt or the shipped file,
        on the first start)."""
        if not self.config.schedule.uses_judge and self.config.judge_first is None:
            return None
        stored = archive.events("judge_prompt")
        if stored:
            return stored[0].data["text"]
        path = Path(self.config.judge_prompt) if self.config.judge_prompt else judge.DEFAULT_PROMPT
        text = check_judge_prompt(path)
        archive.log_event("judge_prompt", data={"text": text, "source": str(path)})
        return text

    def _epoch(self, archive: Archive) -> Utility:
        """The utility of the epoch the next evaluation belongs to; each boundary crossed
        since the last recorded one (at the start, on resume, after an evaluation) is
        recorded first."""
        schedule = self.config.schedule
        evaluations = archive.db.execute(
            "SELECT count(*) FROM evaluations WHERE benchmark = ?", [self.config.benchmark]
        ).fetchone()[0]
        recorded = archive.epochs()
        for number in range(len(recorded) + 1, schedule.epoch_at(evaluations) + 1):
            epoch = archive.add_epoch(schedule.utility(number).spec, schedule.boundary(number))
            if number > 1:
                self.progress.note(
                    f"epoch {number} begins after {epoch.from_evaluation} evaluations: utility {epoch.utility} "
                    "(statistics recomputed from what is recorded)"
                )
        return make_utility(archive.epochs()[-1].utility)

    def _record_child(self, archive: Archive, job: Job, action: Expand, outcome: work.ExpandOutcome) -> None:
        tokens, usd = archive.fm_usage(job.id)
        allowed = {*action.group, *([action.second] if action.second is not None else [])}
        cited = citations.parse(outcome.origin.get("citations"))
        checked = citations.check(archive, action.parent, cited, allowed, outcome.origin.get("citations_unchecked", 0))
        origin = {**outcome.origin, "tokens": tokens, "usd": round(usd, 6)}
        origin["citations"] = [c.as_dict() for c in checked]
        phantom = citations.summary(checked)
        if phantom and outcome.valid and self.config.phantom == "reject":
            outcome = replace(outcome, valid=False, reason=phantom)
        status = "valid" if outcome.valid else "invalid"
        with archive.atomic():
            if outcome.trajectory:  # the meta agent's own trajectory, for the viewer
                origin["trajectory"] = archive.add_blob(outcome.trajectory.encode())
            try:
                if outcome.child is None:
                    raise HostileSnapshotError(".", outcome.reason or "no child")
                node = archive.add_child(action.parent, outcome.child, status, origin, action.second)
            except (HostileSnapshotError, ArchiveError) as exc:
                parent_snapshot = archive.node(action.parent).snapshot
                node = archive.add_node(action.parent, parent_snapshot, "invalid", origin, action.second)
                outcome = replace(outcome, child=None, valid=False, reason=outcome.reason or f"unstorable child: {exc}")
            if not outcome.valid:
                archive.set_status(node.id, "invalid", outcome.reason)
            if phantom:
                refuted = [c.as_dict() for c in citations.refuted(checked)]
                archive.log_event("diagnosis_phantom", node_id=node.id, job_id=job.id, data={"refuted": refuted})
            archive.jobs.finish(job.id, self.worker, {"child": node.id, "valid": outcome.valid})
        self.cache.add_node(node.id, action.parent, "valid" if outcome.valid else "invalid", action.generation)
        self.progress.expanded(action.parent, node.id, outcome.valid, outcome.reason, tokens)

    def _summary(self, archive: Archive, gw: Gateway, tasks: tuple[str, ...]) -> dict[str, Any]:
        from .status import summary

        return summary(archive, self.config, tasks, stop_reason=self.state.stop_reason)
