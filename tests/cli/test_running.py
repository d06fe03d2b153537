"""The jobs in flight, outside the run that runs them: `dgm status` lists them (age, calls
and tokens recorded so far), and `dgm serve` lists them too and follows the trajectory the
agent of one is writing, bounded, with agent text as data (shown as text), never reading
anything but that job's trajectory."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from archive import Archive
from dgm import live_trajectory
from dgm.cli import main
from dgm.inspect import running as running_module
from dgm.inspect.serve import make_app
from dgm.inspect.watch import Watch
from tests.helpers import write_tree

HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
SECRET = "the host's secret, which no page may show"


def make_run(root: Path) -> tuple[Path, Path]:
    """A run (built through the API) with one running evaluation job (started 125 s ago, two
    calls recorded), one queued and one done; the running job's agent writes its trajectory
    to the folder returned (its /out), as announced in the job's folder."""
    run = root / "run"
    with Archive.for_run(run, create=True) as ar:
        ar.add_child(None, write_tree(root / "seed", {"seed_agent/__main__.py": "x = 1\n"}), status="valid")
        done = ar.jobs.enqueue("expand", {"parent": 1})
        ar.jobs.claim("w", job_id=done.id)
        ar.jobs.finish(done.id, "w")
        job = ar.jobs.enqueue("evaluate", {"node": 1, "task": "t1", "benchmark": "builtin:dev"})
        ar.jobs.enqueue("evaluate", {"node": 1, "task": "t2", "benchmark": "builtin:dev"})
        ar.jobs.claim("w", job_id=job.id)
        with ar.atomic():
            ar.db.execute("UPDATE jobs SET started_at = ? WHERE id = ?", [time.time() - 125, job.id])
        for prompt in (100, 200):
            ar.add_fm_call(
                job_id=job.id, node_id=1, model="m", prompt_tokens=prompt, completion_tokens=20, request_hash="h"
            )
    out = root / "out"
    out.mkdir()
    folder = live_trajectory.job_folder(run, job.id)
    folder.mkdir(parents=True)
    (folder / live_trajectory.POINTER).write_text(json.dumps({"out": str(out)}))
    return run, out


def write_trajectory(out: Path, messages: list[dict]) -> None:
    (out / live_trajectory.TRAJECTORY).write_text("".join(json.dumps(m) + "\n" for m in messages))


@pytest.fixture
def run(tmp_path):
    run, out = make_run(tmp_path)
    write_trajectory(out, [{"role": "system", "content": "solve it"}, {"role": "assistant", "content": HOSTILE}])
    return run


@pytest.fixture
def client(run):
    watch = Watch(run)
    yield TestClient(make_app(watch), base_url="http://127.0.0.1")
    watch.close()


def test_status_lists_the_running_job_with_its_age_and_recorded_calls(run):
    text = CliRunner().invoke(main, ["status", "--run", str(run)])
    assert text.exit_code == 0, text.output
    (line,) = [x for x in text.output.splitlines() if x.startswith("running ")]
    assert line.startswith("running      job 2 evaluate node 1 on t1: running 2m0")
    assert "2 model calls recorded, 340 tokens, $0.0000; the last ended 0s ago" in line
    status = json.loads(CliRunner().invoke(main, ["status", "--run", str(run), "--json"]).output)
    (job,) = status["running"]
    assert (job["job"], job["kind"], job["calls"], job["tokens"]) == (2, "evaluate", 2, 340)
    assert 124 <= job["age_s"] < 200


def test_status_says_when_a_running_job_lost_its_heartbeat(run):
    with Archive.for_run(run) as ar, ar.atomic():
        ar.db.execute("UPDATE jobs SET heartbeat_at = ? WHERE state = 'running'", [time.time() - 600])
    text = CliRunner().invoke(main, ["status", "--run", str(run)]).output
    assert "(no heartbeat for 10m00s: its run may have stopped)" in text


def test_serve_lists_running_jobs_and_follows_the_agents_trajectory_as_data(client):
    (job,) = client.get("/api/running").json()["jobs"]
    assert (job["job"], job["what"], job["calls"], job["live"]) == (2, "node 1 on t1", 2, True)
    reply = client.get("/api/job/2/trajectory")
    assert reply.headers["content-type"] == "application/json"
    assert "script-src 'self'" in reply.headers["content-security-policy"]
    assert reply.headers["x-content-type-options"] == "nosniff"
    answer = reply.json()
    assert answer["following"]
    assert answer["state"] == "running"
    assert answer["messages"][-1] == {"role": "assistant", "content": HOSTILE}  # a value, never markup
    assert client.get("/api/job/3/trajectory").json()["following"] is False  # queued: no agent runs
    assert client.get("/api/job/99/trajectory").status_code == 404


def test_a_flooded_trajectory_comes_back_bounded_to_its_end(run, client, tmp_path):
    write_trajectory(tmp_path / "out", [{"role": "tool", "content": f"step {i} " + "x" * 200} for i in range(5000)])
    reply = client.get("/api/job/2/trajectory")
    answer = reply.json()
    assert len(reply.content) < running_module.LIVE_BYTES + 50_000
    assert len(answer["messages"]) == running_module.LIVE_STEPS
    assert answer["cut"]
    assert answer["messages"][-1]["content"].startswith("step 4999 ")
    assert all("raw" not in m for m in answer["messages"])  # the cut first line is left out, not shown broken
    assert answer["bytes"] > 1_000_000
    assert answer["lines_not_shown"] > 0


def test_the_trajectory_is_never_read_through_a_link_or_a_fifo(client, tmp_path):
    secret = tmp_path / "secret"
    secret.write_text(json.dumps({"role": "assistant", "content": SECRET}) + "\n")
    trajectory = tmp_path / "out" / live_trajectory.TRAJECTORY
    trajectory.unlink()
    trajectory.symlink_to(secret)
    answer = client.get("/api/job/2/trajectory")
    assert answer.status_code == 200
    assert answer.json()["messages"] == []
    assert SECRET not in answer.text
    trajectory.unlink()
    os.mkfifo(trajectory)
    assert client.get("/api/job/2/trajectory").json()["messages"] == []  # answered at once, not blocked


@pytest.mark.parametrize(
    "path",
    [
        "/api/job/..%2F..%2Fsecret/trajectory",
        "/api/job/2%2F..%2F..%2Fsecret/trajectory",
        "/api/job/../../secret/trajectory",
        "/api/job/-2/trajectory",
        "/api/job/2.0/trajectory",
        "/api/job/%2Ftmp/trajectory",
    ],
)
def test_a_job_id_that_is_not_a_number_reads_nothing(client, path, tmp_path):
    (tmp_path / "secret").write_text(SECRET)
    reply = client.get(path)
    assert reply.status_code == 404
    assert SECRET not in reply.text


def test_the_running_job_is_shown_and_followed_in_the_browser(browser, run):
    from tests.cli.test_serve import start_serve

    server, url = start_serve(run)
    try:
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("#running a[href='#job=2']")
        assert "job 2 evaluate node 1 on t1" in page.inner_text("#running")
        page.click("#running a[href='#job=2']")
        page.wait_for_selector("#panel .msg")
        shown = page.inner_text("#panel")
        assert "following its agent's trajectory" in shown
        assert HOSTILE in shown
        assert page.locator("#panel script, #panel img").count() == 0
        assert page.evaluate("window.__pwned") is None
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_an_agent_running_in_a_sandbox_is_followed_while_it_runs_and_only_then(bwrap, tmp_path):
    """A real agent run: the job's folder names its /out while it runs (its trajectory is
    read from there, step by step), and nothing once its sandbox is gone."""
    import concurrent.futures

    from dgm import agent_exec

    tmp_path.chmod(0o755)
    agent = (
        "import pathlib, sys, time\n"
        "out = pathlib.Path(sys.argv[sys.argv.index('--out') + 1])\n"
        "with open(out / 'trajectory.jsonl', 'a') as f:\n"
        '    f.write(\'{"role": "assistant", "content": "step one"}\\n\'); f.flush()\n'
        "    time.sleep(4)\n"
    )
    code = write_tree(tmp_path / "code", {"seed_agent/__init__.py": "", "seed_agent/__main__.py": agent})
    for path in [code, *code.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    folder = tmp_path / "job"
    folder.mkdir(mode=0o755)
    host = agent_exec.Host(bwrap, live=folder / live_trajectory.POINTER)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        ran = pool.submit(agent_exec.improve, host, code, write_tree(tmp_path / "evidence", {"e": "x"}), folder / "i")
        deadline, seen = time.monotonic() + 60, None
        while time.monotonic() < deadline and not ran.done():
            got = live_trajectory.tail(folder, 10_000)
            if got and b"step one" in got[0]:
                seen = got
                break
            time.sleep(0.1)
        result = ran.result(timeout=120)
    assert seen is not None, result.result.stderr
    assert result.result.exit_code == 0, result.result.stderr
    assert live_trajectory.tail(folder, 10_000) is None
    assert not (folder / live_trajectory.POINTER).exists()
