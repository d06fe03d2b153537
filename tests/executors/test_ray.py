"""The Ray executor on a real local cluster (a head and two worker nodes on loopback), with
real bwrap sandboxes, the real gateway and the SCRIPTED upstream (the test double): the
same seed gives the same archive as the local executor, model use is metered exactly once
through the workers' relays, and a worker node killed mid-job loses nothing."""

from __future__ import annotations

import copy
import json
import signal
import subprocess
import time

import pytest

from archive import Archive
from tests.engine.conftest import SCRIPT, evolve_cmd, quick_seed_agent
from tests.engine.test_engine import archive_state
from tests.reliability.conftest import sandbox_processes, start

pytestmark = pytest.mark.minutes(9)  # see tests/conftest.py

LIMITS = ("--seed", "7", "--workers", "1", "--max-expansions", "3", "--max-evals", "9")


def slow_script(path, seconds: float):
    """The engine tests' script, with each task agent's first reply `seconds` late (so a
    node can be killed while a job is surely running on it)."""
    script = copy.deepcopy(SCRIPT)
    for rule in script["rules"]:
        if rule["when"].get("turn") == 0 and "contains" in rule["when"]:
            rule["reply"] = {**rule["reply"], "fault": "hang", "seconds": seconds}
    script["rules"].insert(-1, {"when": {"turn": 0}, "reply": {"fault": "hang", "seconds": seconds, "content": "?"}})
    path.write_text(json.dumps(script))
    return path


def run_cmd(run, tasks, script, *extra):
    """`dgm evolve` under LIMITS, from the quick seed (what is tested is the executor)."""
    seed = quick_seed_agent(tasks.parent)
    return evolve_cmd(run, tasks, f"scripted:{script}", *LIMITS, "--seed-agent", str(seed), *extra)


def run_evolve(run, tasks, script, *extra):
    result = subprocess.run(run_cmd(run, tasks, script, *extra), capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout + result.stderr


def metering(run):
    with Archive.for_run(run) as ar:
        calls = ar.fm_calls()
        return len(calls), ar.fm_usage()[0], sorted(c.job_id for c in calls)


def node_cache_use(cache, run):
    """How many agents a node materialized; asserts it fetched exactly the blobs of those
    agents (no more) and left no job folders."""
    if not (cache / "code").exists():
        return 0
    codes = list((cache / "code").iterdir())
    with Archive.for_run(run) as ar:
        snapshots = {n.snapshot for n in ar.nodes()}
        assert {c.name for c in codes} <= snapshots
        needed = {e.blob for c in codes for e in ar.manifest(c.name) if e.blob}
    assert {p.name for p in (cache / "blobs").iterdir()} == needed
    assert list((cache / "work").iterdir()) == []
    return len(codes)


def test_ray_run_equals_local_run(ray_cluster, engine_env, tmp_path):
    tasks, script = engine_env
    run_evolve(tmp_path / "local", tasks, script)
    out = run_evolve(tmp_path / "ray", tasks, script, "--executor", "ray", "--ray-address", ray_cluster.address)
    assert "jobs run on a Ray cluster: 2 node(s) with dgm_bwrap" in out
    local, ray = archive_state(tmp_path / "local"), archive_state(tmp_path / "ray")
    assert ray == local
    nodes, evals = ray
    assert len(nodes) == 4
    assert len(evals) == 9
    # every model call crossed a worker's relay to the driver's gateway and was metered once
    assert metering(tmp_path / "ray") == metering(tmp_path / "local")
    used = [node_cache_use(c, tmp_path / "ray") for c in ray_cluster.caches.values()]
    assert sum(used) >= 1, "no worker node materialized any agent"
    assert sandbox_processes(among=ray_cluster.processes()) == []


@pytest.mark.parametrize(
    "recipe", [["--recipe", "dgm"], ["--recipe", "gea"], ["--recipe", "darwinx", "--teacher-model", "teacher-m"]]
)
def test_ray_run_equals_local_run_under_the_recipes(ray_cluster, engine_env, tmp_path, recipe):
    """Groups, admission, second parents and the teacher's attempt (run on a worker) travel
    as job values: a Ray run is the local run."""
    tasks, script = engine_env
    run_evolve(tmp_path / "local", tasks, script, *recipe)
    run_evolve(tmp_path / "ray", tasks, script, *recipe, "--executor", "ray", "--ray-address", ray_cluster.address)
    assert archive_state(tmp_path / "ray") == archive_state(tmp_path / "local")
    assert metering(tmp_path / "ray") == metering(tmp_path / "local")
    assert sandbox_processes(among=ray_cluster.processes()) == []


def test_killing_a_worker_mid_job_loses_nothing(ray_cluster, engine_env, tmp_path):
    tasks, _ = engine_env
    script = slow_script(tmp_path / "slow.json", 2.0)
    run_evolve(tmp_path / "local", tasks, script)
    run = tmp_path / "ray"
    proc = start(run_cmd(run, tasks, script, "--executor", "ray", "--ray-address", ray_cluster.address))
    victim = None
    deadline = time.monotonic() + 120
    while victim is None and time.monotonic() < deadline and proc.poll() is None:
        for name, cache in ray_cluster.caches.items():
            busy = list((cache / "work").glob("*-job-*")) if (cache / "work").exists() else []
            if busy and any("-job-1" not in p.name for p in busy):  # not the first job: the run is under way
                victim = name
        time.sleep(0.2)
    assert victim, "no job was seen running on a worker node"
    time.sleep(0.5)
    killed = ray_cluster.kill_worker(victim)
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, out
    assert "lost its worker" in out
    with Archive.for_run(run) as ar:
        lost = ar.events("worker_lost")
        assert len(lost) == 1
        assert lost[0].data["state"] == "queued"
        assert ar.jobs.list(state="failed") == []
        assert ar.jobs.list(state="running") == []
    assert archive_state(run) == archive_state(tmp_path / "local")
    assert sandbox_processes(among=killed | ray_cluster.processes()) == [], "a sandbox outlived its killed node"


def test_no_cluster_at_the_address_is_a_clear_error(engine_env, tmp_path):
    tasks, script = engine_env
    cmd = evolve_cmd(tmp_path / "run", tasks, f"scripted:{script}", "--executor", "ray", "--ray-address", "127.0.0.1:1")
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "no Ray cluster answers at 127.0.0.1:1" in result.stderr
    assert "ray start --head" in result.stderr


def test_a_cluster_without_sandbox_nodes_is_a_clear_error(ray_cluster, engine_env, tmp_path):
    tasks, script = engine_env
    cmd = evolve_cmd(
        tmp_path / "run",
        tasks,
        f"scripted:{script}",
        "--executor",
        "ray",
        "--ray-address",
        ray_cluster.address,
        "--backend",
        "local",
    )
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "no node of the Ray cluster offers the 'dgm_unsandboxed' resource" in result.stderr


def test_sigterm_twice_requeues_ray_jobs_and_the_run_resumes(ray_cluster, engine_env, tmp_path):
    """Ray installs its own SIGTERM handler in the driver; dgm's must still be the one that
    runs: the first signal lets jobs finish, the second cancels them on the workers and
    hands them back to the queue, and a later run resumes to the same archive."""
    tasks, _ = engine_env
    script = slow_script(tmp_path / "slow.json", 1.0)
    run_evolve(tmp_path / "local", tasks, script)
    run = tmp_path / "ray"
    ray_args = ("--executor", "ray", "--ray-address", ray_cluster.address)
    proc = start(run_cmd(run, tasks, script, *ray_args))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if (run / "archive.db").exists():
            with Archive.for_run(run) as ar:
                if ar.evaluations() and ar.jobs.list(state="running"):
                    break
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0, out
    assert "running job(s) re-queued for the next run" in out
    assert "stopped on request" in out
    with Archive.for_run(run) as ar:
        assert ar.jobs.list(state="running") == []
        assert ar.jobs.list(state="queued") != []
    assert sandbox_processes(among=ray_cluster.processes()) == [], "a cancelled job's sandbox is still running"
    run_evolve(run, tasks, script, *ray_args)
    assert archive_state(run) == archive_state(tmp_path / "local")
    for cache in ray_cluster.caches.values():  # the cancelled jobs' folders were swept at the restart
        assert not (cache / "work").exists() or list((cache / "work").iterdir()) == []
