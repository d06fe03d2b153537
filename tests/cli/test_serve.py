"""`dgm serve`: headless Chromium (Debian's) on a scripted run while it is still going, and
the server's guards (loopback only, the token, read-only, agent text shown as text)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from dgm.inspect import watch as watch_module
from dgm.inspect.data import InspectError
from dgm.inspect.watch import Watch
from tests.engine.conftest import SCRIPT, evolve_cmd, make_engine_env
from tests.helpers import write_tree

pytestmark = pytest.mark.minutes(3)  # see tests/conftest.py

HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'


def start_serve(run: Path, *extra: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """`dgm serve` on a free port; the process and the URL it printed."""
    cmd = [sys.executable, "-m", "dgm", "serve", "--run", str(run), "--port", "0", *extra]
    env = {**os.environ, **(env or {})}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    proc.head = []  # what it printed up to its URL
    while not proc.head or " at http://" not in proc.head[-1]:
        line = proc.stdout.readline()
        assert line, "".join(proc.head)
        proc.head.append(line)
    return proc, proc.head[-1].split(" at ", 1)[1].split()[0]


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


@pytest.fixture
def served(scripted_run):
    proc, url = start_serve(scripted_run[0])
    yield url
    proc.terminate()
    proc.wait(timeout=10)


def shown_nodes(page, at_least: int, timeout: float) -> int:
    """The number of agents the page shows, once it is `at_least` (polled from here: the
    page's policy forbids the string evaluation Playwright's wait_for_function uses)."""
    deadline = time.monotonic() + timeout
    while True:
        shown = int(page.get_attribute("body", "data-nodes") or 0)
        if shown >= at_least or time.monotonic() > deadline:
            return shown
        page.wait_for_timeout(250)


def hostile_env(root: Path) -> tuple[Path, Path]:
    """The engine tests' tasks and script, with agent-written markup: the task agent's reply
    (in every trajectory) and the meta agent's diagnosis."""
    tasks, script = make_engine_env(root)
    rules = json.loads(json.dumps(SCRIPT["rules"]))
    rules[0]["reply"]["content"] = json.dumps(
        {"summary": f"diagnosis {HOSTILE}", "proposal": "read first", "implementation_plan": "edit the prompt"}
    )
    rules[-1]["reply"]["content"] = f"I could not find the problem. {HOSTILE}"
    script.write_text(json.dumps({**SCRIPT, "rules": rules}))
    return tasks, script


def test_a_run_in_progress_in_the_browser(browser, bwrap, tmp_path):
    tmp_path.chmod(0o755)
    tasks, script = hostile_env(tmp_path)
    run = tmp_path / "run"
    flags = ("--max-expansions", "5", "--max-evals", "18", "--workers", "1", "--seed", "3")
    evolving = subprocess.Popen(evolve_cmd(run, tasks, f"scripted:{script}", *flags), stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not (run / "archive.db").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    server, url = start_serve(run)
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        problems, requests = [], []
        page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(url)
        first = shown_nodes(page, at_least=1, timeout=60)
        assert shown_nodes(page, at_least=first + 1, timeout=180) > first  # it grew; the page was never reloaded
        assert page.locator("circle.node").count() > first

        page.click('circle.node[data-id="2"]')
        page.wait_for_selector("#panel pre.diff")
        node_text = page.inner_text("#panel")
        assert "node 2" in node_text
        assert "diff --git" in node_text
        assert "solve_system.md" in node_text
        assert f"diagnosis {HOSTILE}" in node_text  # the meta agent's markup, as text

        evolving.wait(timeout=300)
        assert evolving.returncode == 0
        with Archive.for_run(run, read_only=True) as ar:
            failed = next(e for e in ar.evaluations(2) if not e.resolved)
        page.click(f'#panel a[href="#eval={failed.id}"]')
        page.wait_for_selector("#panel .msg")
        trajectory = page.inner_text("#panel")
        assert "Trajectory" in trajectory
        assert "Grading log" in trajectory
        assert failed.task_id in trajectory
        assert HOSTILE in trajectory  # the task agent's <script> is shown, not run
        assert page.locator("#panel script, #panel img").count() == 0
        assert page.evaluate("window.__pwned") is None
        (tmp_path / "serve.png").write_bytes(page.screenshot())
        base = url.rsplit("/", 1)[0]
        assert problems == [], problems
        assert requests, requests
        assert all(r.startswith(base) for r in requests), requests
    finally:
        evolving.kill()
        server.terminate()
        server.wait(timeout=10)


def test_it_never_writes_the_archive(scripted_run, served):
    db = scripted_run[0] / "archive.db"
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    for path in (
        "",
        "api/overview",
        "api/tree",
        "api/node/2",
        "api/evaluation/1",
        "api/expansion/2",
        "api/compare?a=1&b=2",
    ):
        status, _, _ = fetch(served + path)
        assert status == 200, path
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_its_replies_forbid_scripts_from_anywhere_else(served):
    status, headers, body = fetch(served)
    assert status == 200
    assert b'<script src="/static/app.js">' in body
    policy = headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "default-src 'none'" in policy
    assert "unsafe-inline" not in policy
    assert headers["x-content-type-options"] == "nosniff"
    status, headers, body = fetch(served + "api/node/999")
    assert status == 404
    assert json.loads(body) == {"error": "no node 999"}
    assert fetch(served + "api/node/99999999999999999999999")[0] == 400  # beyond SQLite's integers
    assert fetch(served + "api/compare?a=1&b=x")[0] == 400
    assert fetch(served + "api/diff?a=1")[0] == 400


def test_on_loopback_it_answers_only_loopback_names(served):
    """A page elsewhere that rebinds its own name to 127.0.0.1 cannot read the run."""
    assert fetch(served + "api/version")[0] == 200
    assert fetch(served + "api/version", {"Host": "localhost:1"})[0] == 200
    assert fetch(served + "api/version", {"Host": "attacker.example:8765"})[0] == 421


def test_with_a_token_every_request_must_carry_it(scripted_run):
    server, url = start_serve(scripted_run[0], "--token", "s3cret")
    try:
        assert url.endswith("?token=s3cret")
        base = url.split("?")[0]
        assert fetch(base + "api/version")[0] == 401
        assert fetch(base + "api/version?token=wrong")[0] == 401
        status, headers, _ = fetch(url)
        assert status == 200
        assert "HttpOnly" in headers["set-cookie"]
        assert "SameSite=Strict" in headers["set-cookie"]
        assert fetch(base + "api/tree", {"Cookie": "dgm_token=s3cret"})[0] == 200
        assert fetch(base + "api/tree", {"Authorization": "Bearer s3cret"})[0] == 200
        assert fetch(base + "api/tree", {"Cookie": "a=b; $$=1; dgm_token=s3cret"})[0] == 200  # malformed around it
        assert fetch(base + "api/tree", {"Cookie": "$$=1; dgm_token=nope"})[0] == 401
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_token_can_come_from_the_environment(flagged_run):
    server, url = start_serve(flagged_run, env={"DGM_SERVE_TOKEN": "from-env"})
    try:
        assert url.endswith("?token=from-env")
        assert fetch(url.split("?")[0] + "api/version")[0] == 401
        assert fetch(url.split("?")[0] + "api/version", {"Authorization": "Bearer from-env"})[0] == 200
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_off_loopback_it_needs_a_token_and_warns(scripted_run):
    refused = CliRunner().invoke(main, ["serve", "--run", str(scripted_run[0]), "--host", "0.0.0.0"])
    assert refused.exit_code != 0
    assert "--token" in refused.output
    server, url = start_serve(scripted_run[0], "--host", "0.0.0.0", "--token", "t0ken")
    try:
        assert fetch(url.replace("0.0.0.0", "127.0.0.1"))[0] == 200
    finally:
        server.terminate()
        server.communicate(timeout=10)
    assert "warning: --host 0.0.0.0" in "".join(server.head)


def niceness(pid: int) -> int:
    """The process's nice value (field 19 of /proc/PID/stat, after the command's parentheses)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16])


def test_it_yields_the_cpu_to_the_run_it_watches(flagged_run):
    base = os.getpriority(os.PRIO_PROCESS, 0)
    for extra, lowered in (((), 10), (("--nice", "3"), 3), (("--nice", "0"), 0)):
        proc, url = start_serve(flagged_run, *extra)
        try:
            assert fetch(url + "api/version")[0] == 200
            assert niceness(proc.pid) == min(19, base + lowered), extra
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def test_a_missing_run_is_a_clean_error(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--run", str(tmp_path / "nope")])
    assert result.exit_code != 0
    assert "no run directory" in result.output


@pytest.fixture
def flagged_run(tmp_path):
    """An archive built through the API: node 2's grading was tampered with, node 3's patch
    touched a test file and it is invalid, node 4 is plain."""
    run = tmp_path / "flagged"
    with Archive.for_run(run, create=True) as ar:
        seed = ar.add_child(None, write_tree(tmp_path / "seed", {"seed_agent/a.py": "x = 1\n"}), status="valid")
        for n in range(3):
            child = ar.add_child(seed.id, write_tree(tmp_path / f"c{n}", {"seed_agent/a.py": f"x = {n + 2}\n"}))
            ar.set_status(child.id, "valid")
            ar.add_evaluation(child.id, "builtin:dev", "t1", n == 2)
        ar.log_event("grading_tampered", node_id=2, data={"task": "t1", "tamper": ["conftest"]})
        ar.log_event("patch_flagged", node_id=3, data={"task": "t1", "stripped": ["tests/test_x.py"]})
        ar.set_status(3, "invalid", "its tests were tampered with")
    return run


def test_the_tree_marks_each_agent_with_its_flags(flagged_run):
    watch = Watch(flagged_run)
    try:
        rows = {row[0]: row for row in watch.tree()["nodes"]}
    finally:
        watch.close()
    assert rows[2][6] == ["tampered"]
    assert rows[3][6] == ["stripped"]
    assert rows[3][3] == "invalid"
    assert rows[4][4:6] == [1, 1]
    assert rows[4][6] == []


def test_a_flag_filter_in_the_page_picks_out_the_flagged_agents(browser, flagged_run):
    server, url = start_serve(flagged_run)
    try:
        page = browser.new_page()
        page.goto(url)
        assert shown_nodes(page, at_least=4, timeout=30) == 4
        page.check('input.flag[value="tampered"]')
        assert page.get_attribute('circle.node[data-id="2"]', "class").split() == ["node", "hit"]
        assert all("dim" in page.get_attribute(f'circle.node[data-id="{i}"]', "class") for i in (1, 3, 4))
        page.check('input.flag[value="invalid"]')  # either flag
        assert "hit" in page.get_attribute('circle.node[data-id="3"]', "class")
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_an_answer_that_comes_after_the_next_click_does_not_replace_what_it_shows(browser, flagged_run):
    """A poll redraws the node on show while a click asks for a trajectory; when the node's
    answer comes back last, the trajectory stays (it was replaced by the node's page, and
    the page then stayed there: the hash no longer asked for a redraw)."""
    server, url = start_serve(flagged_run)
    try:
        page = browser.new_page()
        page.goto(url + "#node=3")
        page.wait_for_selector('#panel[data-shown="#node=3"]')
        held = []
        page.route("**/api/node/2", lambda route: held.append(route))  # node 2's answer waits until released
        page.click('circle.node[data-id="2"]')
        deadline = time.monotonic() + 30
        while not held and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert held, "the page never asked for node 2"
        with Archive.for_run(flagged_run, read_only=True) as ar:
            evaluation = ar.evaluations(2)[0]
        page.click('circle.node[data-id="3"]')  # away and to the evaluation, as a link does
        page.wait_for_selector('#panel[data-shown="#node=3"]')
        page.evaluate(f"location.hash = '#eval={evaluation.id}'")
        page.wait_for_selector(f'#panel[data-shown="#eval={evaluation.id}"]')
        with page.expect_response("**/api/node/2"):
            held[0].continue_()
        page.wait_for_timeout(1000)  # the late answer has been read; the old page drew it at once
        text = page.inner_text("#panel")
        assert f"on {evaluation.task_id}" in text, text
        assert "Per task" not in text, text
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_run_wide_answer_waits_while_recomputing_it_would_cost_too_much(flagged_run, monkeypatch):
    watch = Watch(flagged_run)
    try:
        before = watch.tree()
        with Archive.for_run(flagged_run) as writer:
            writer.add_evaluation(1, "builtin:dev", "t1", True)
        monkeypatch.setattr(watch_module, "REFRESH_COST", 1e9)  # as if it had just cost a great deal
        stale = watch.tree()
        assert stale == before
        assert watch.version()["version"] != stale["version"]
        monkeypatch.setattr(watch_module, "REFRESH_COST", 0)
        fresh = watch.tree()
        assert fresh["version"] == watch.version()["version"]
        assert fresh["nodes"][0][4:6] == [1, 1]
    finally:
        watch.close()


def test_make_serve_serves_the_run_it_is_given():
    root = Path(__file__).resolve().parents[2]
    dry = subprocess.run(
        ["make", "-n", "-o", ".venv/.bootstrap-stamp", "serve", "RUN=/tmp/some-run", "SERVE_ARGS=--port 9000"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert dry.returncode == 0, dry.stdout + dry.stderr
    assert "dgm serve --run /tmp/some-run --port 9000" in dry.stdout, dry.stdout + dry.stderr


def test_compare_puts_two_agents_task_results_side_by_side_with_their_diff(flagged_run):
    watch = Watch(flagged_run)
    try:
        compared = watch.compare(2, 4)
        assert [
            (t["task"], t["a"]["resolved"], t["a"]["n"], t["b"]["resolved"], t["b"]["n"]) for t in compared["tasks"]
        ] == [("t1", 0, 1, 1, 1)]
        assert "-x = 2" in compared["diff"]
        assert "+x = 4" in compared["diff"]
        assert watch.diff(4, 2)["diff"].count("+x = 2") == 1
        with pytest.raises(InspectError, match="no node 9"):
            watch.compare(2, 9)
    finally:
        watch.close()


def test_an_agent_that_floods_its_memory_cannot_flood_the_viewer(tmp_path):
    """Memory notes are agent-written: 500 files of 100 kB each come back as the first 20,
    each clipped, and a count of the rest."""
    files = {f"seed_agent/memory/note{i:03}.md": "x" * 100_000 for i in range(500)}
    with Archive.for_run(tmp_path / "run", create=True) as ar:
        ar.add_child(None, write_tree(tmp_path / "seed", files), status="valid")
    watch = Watch(tmp_path / "run")
    try:
        node = watch.node(1)
    finally:
        watch.close()
    assert len(node["memory"]) == watch_module.NOTE_FILES
    assert node["memory_not_shown"] == 500 - watch_module.NOTE_FILES
    assert all(len(m["text"]) < watch_module.NOTE_LIMIT + 100 for m in node["memory"])
    assert len(json.dumps(node)) < 1_000_000
