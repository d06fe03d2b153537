"""Jobs as Ray tasks on a cluster. The driver (this process, on a node of the cluster)
keeps the archive; each job goes out as plain values (the request, the snapshot's
manifest, and object-store references to its blobs, which the worker fetches only when
its node lacks them), runs on any node that offers the `dgm_<backend>` resource (one unit
per job, next to one CPU and the sandbox's memory), and comes back as a value. Sandboxed
agents on a worker reach the model through that worker's relay, which forwards to a
small actor on the driver's node, which hands the request to the driver's gateway: one
meter, one budget. A job whose node or worker process dies raises WorkerLost, and the
engine re-queues it like any stale job.

Start a cluster: `ray start --head` on the driver's machine, then on each worker machine
`ray start --address HEAD:6379 --resources '{"dgm_bwrap": N}'` (N jobs at once)."""

from __future__ import annotations

import concurrent.futures
import logging
import os
import signal
import socket
import threading
import uuid
from collections import OrderedDict
from typing import Any

from ..engine import work
from ..engine.jobs import ExecutorError, Request, RunEnv, WorkerLost
from .ray_worker import WorkerSetup, probe, run_job

log = logging.getLogger(__name__)
MAX_BLOB_REFS = 50_000  # blobs kept in the object store; older ones are put again when needed


def resource_name(backend: str) -> str:
    """The Ray resource that marks nodes able to run `backend`'s sandboxes (its registry name)."""
    from sandbox import canonical

    return f"dgm_{canonical(backend)}"


class _Forwarder:
    """Lives on the driver's node; passes relayed requests to the driver's gateway socket."""

    def __init__(self, socket_path: str, timeout: float):
        self.socket_path, self.timeout = socket_path, timeout

    def forward(self, method: str, path: str, headers: list[tuple[str, str]], body: bytes):
        from .relay import forward_to_socket

        return forward_to_socket(self.socket_path, (method, path, headers, body), self.timeout)


def _python_signal_handlers() -> dict:
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}


def _restore(handlers: dict) -> None:
    for sig, handler in handlers.items():
        if handler is not None:
            signal.signal(sig, handler)


def _check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """Fail at once, with the way out, when nothing listens at a HOST:PORT address."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return  # "auto", or a form Ray resolves itself
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise ExecutorError(
            f"no Ray cluster answers at {address} ({exc.strerror or exc}). Start one with "
            "`ray start --head --port PORT` on that machine, or fix --ray-address."
        ) from None


class RayExecutor:
    name = "ray"
    summary = "a Ray cluster (pip install dgm[ray])"

    def __init__(self, address: str | None = None, workers: int = 2, cache_root: str | None = None):
        """`address`: the cluster (default RAY_ADDRESS, else the one running on this machine);
        `workers`: jobs in flight at once, cluster-wide."""
        self.address = address
        self.workers = workers
        self.cache_root = cache_root
        self._refs: dict[int, Any] = {}  # job id -> the task's ObjectRef
        self._blobs: OrderedDict[str, Any] = OrderedDict()
        self._connected_here = False
        self._ray = None
        self.env: RunEnv | None = None

    @classmethod
    def from_config(cls, config) -> RayExecutor:
        return cls(config.ray_address, config.workers)

    # --- start -----------------------------------------------------------------------
    def _connect(self):
        try:
            import ray
        except ImportError:
            raise ExecutorError("the ray executor needs Ray: pip install 'dgm[ray]'") from None
        self._ray = ray
        if not ray.is_initialized():
            address = self.address or os.environ.get("RAY_ADDRESS") or "auto"
            _check_reachable(address)  # ray.init waits forever on an address where nothing listens
            saved = _python_signal_handlers()
            try:
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
            except (ConnectionError, RuntimeError) as exc:
                raise ExecutorError(
                    f"cannot join a Ray cluster at {address}: {exc}. Start one with `ray start --head` "
                    "(and workers with `ray start --address HEAD:6379 --resources '{\"dgm_bwrap\": N}'`), "
                    "or pass --ray-address."
                ) from exc
            finally:
                # Ray's core worker installs its own SIGTERM handler, which would end the driver
                # at once instead of letting dgm finish or re-queue the running jobs.
                _restore(saved)
            self._connected_here = True
        return ray

    def start(self, env: RunEnv) -> None:
        ray = self._connect()
        try:
            self._start(ray, env)
        except BaseException:
            self.shutdown()
            raise

    def _start(self, ray, env: RunEnv) -> None:
        self.env = env
        cfg = env.config
        backend = cfg.backend
        resource = resource_name(backend)
        nodes = [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get(resource)]
        if not nodes:
            raise ExecutorError(
                f"no node of the Ray cluster offers the {resource!r} resource, so no job could be placed. "
                f"Start workers that have a working {backend} sandbox with "
                f"`ray start --address HEAD:6379 --resources '{{\"{resource}\": N}}'`."
            )
        self._check_nodes(ray, nodes, backend, resource)
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        here = ray.get_runtime_context().get_node_id()
        timeout = (cfg.fm_timeout_s + 60) * max(cfg.fm_attempts, 1)
        self.forwarder = (
            ray.remote(_Forwarder)
            .options(
                num_cpus=0,
                max_concurrency=64,
                scheduling_strategy=NodeAffinitySchedulingStrategy(here, soft=False),
            )
            .remote(str(env.context.socket), timeout)
        )
        self.setup = WorkerSetup(
            run_key=uuid.uuid4().hex[:12],
            backend=backend,
            benchmark=cfg.benchmark,
            solve_timeout_s=cfg.solve_timeout_s,
            improve_timeout_s=cfg.improve_timeout_s,
            cache_root=self.cache_root,
        )
        memory_mb = max(
            work.limits_for(cfg.solve_timeout_s).memory_mb, work.limits_for(cfg.improve_timeout_s).memory_mb
        )
        self.task = ray.remote(run_job).options(
            num_cpus=1, memory=memory_mb * 2**20, resources={resource: 1}, max_retries=0
        )
        self.nodes = len(nodes)

    def _check_nodes(self, ray, nodes: list[dict], backend: str, resource: str) -> None:
        """Every node offering the resource must have a working sandbox backend."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        probes = [
            ray.remote(probe)
            .options(
                num_cpus=0,
                resources={resource: 0.001},
                scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False),
            )
            .remote(backend, self.cache_root)
            for n in nodes
        ]
        try:
            answers = ray.get(probes, timeout=300)
        except ray.exceptions.GetTimeoutError as exc:
            raise ExecutorError("the Ray workers did not answer the sandbox check within 5 minutes") from exc
        broken = [f"{node[:12]}: {detail}" for node, ok, detail in answers if not ok]
        if broken:
            raise ExecutorError(
                f"the {backend} sandbox does not work on these Ray nodes (fix them, or start them without "
                f"the {resource!r} resource): " + "; ".join(broken)
            )

    def describe(self) -> str:
        resource = resource_name(self.env.config.backend)
        return f"a Ray cluster: {self.nodes} node(s) with {resource}, {self.workers} job(s) at once"

    # --- jobs ------------------------------------------------------------------------
    def _blob_ref(self, sha: str):
        ref = self._blobs.get(sha)
        if ref is None:
            ref = self._blobs[sha] = self._ray.put(self.env.archive.blob(sha))
            if len(self._blobs) > MAX_BLOB_REFS:
                self._blobs.popitem(last=False)
        else:
            self._blobs.move_to_end(sha)
        return ref

    def submit(self, request: Request) -> concurrent.futures.Future:
        entries = self.env.archive.manifest(request.snapshot)
        refs = {e.blob: self._blob_ref(e.blob) for e in entries if e.blob}
        ref = self.task.remote(self.setup, request, entries, refs, self.forwarder)
        self._refs[request.job_id] = ref
        outer: concurrent.futures.Future = concurrent.futures.Future()
        ref.future().add_done_callback(lambda inner: self._settle(request.job_id, inner, outer))
        return outer

    def _settle(self, job_id: int, inner: concurrent.futures.Future, outer: concurrent.futures.Future) -> None:
        self._refs.pop(job_id, None)
        exc = inner.exception()
        if exc is None:
            outcome, stats = inner.result()
            log.debug(
                "job %s ran on node %s (%d blobs fetched, %d cached)",
                *(job_id, stats.node[:12], stats.fetched, stats.cached),
            )
            outer.set_result(outcome)
            return
        lost = (
            self._ray.exceptions.NodeDiedError,
            self._ray.exceptions.WorkerCrashedError,
            self._ray.exceptions.ObjectLostError,
            self._ray.exceptions.ActorDiedError,
            self._ray.exceptions.TaskCancelledError,
        )
        if isinstance(exc, lost):
            outer.set_exception(WorkerLost(f"job {job_id}: {str(exc).splitlines()[0]}"))
        else:
            outer.set_exception(exc)

    def shutdown(self, cancel: bool = False) -> int:
        if self._ray is None:
            return 0
        closed = 0
        if cancel:
            for ref in list(self._refs.values()):
                self._ray.cancel(ref, force=True)  # kills the worker process; its bwrap sandboxes die with it
                closed += 1
        self._refs.clear()
        self._blobs.clear()
        if self._connected_here and self._ray.is_initialized():
            self._ray.shutdown()
        self._ray = None
        return closed
