"""Bad input: each gives a clear message, a non-zero exit where the command cannot go on,
and never overwrites or loses what was already stored."""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import subprocess
import time

import pytest
from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from tests.engine.conftest import SCRIPT, evolve
from tests.reliability.conftest import evolve_cmd, start

pytestmark = pytest.mark.faults


WORKERS = ("--workers", "2")


def test_corrupt_or_foreign_archive_is_refused_untouched(bwrap, engine_env, tmp_path):
    tasks, script = engine_env
    for name, make in (
        ("garbage", lambda p: p.write_bytes(b"\x00not sqlite" * 500)),
        ("foreign", lambda p: sqlite3.connect(p).executescript("CREATE TABLE x (y); INSERT INTO x VALUES (1);")),
    ):
        run = tmp_path / name
        run.mkdir()
        make(run / "archive.db")
        before = (run / "archive.db").read_bytes()
        result = evolve(run, tasks, script, *WORKERS, "--max-evals", "1")
        assert result.exit_code == 1, result.output
        assert "not a usable dgm archive" in result.output or "not a dgm archive" in result.output, result.output
        assert (run / "archive.db").read_bytes() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--selector", "greedy"], "Invalid value for '--selector'"),
        (["--backend", "vm"], "Invalid value for '--backend'"),
        (["--mode", "fast"], "Invalid value for '--mode'"),
        (["--fm", "gpt"], "unknown model upstream 'gpt'"),
        (["--benchmark", "taskdir:/nonexistent/tasks"], "no task folder at /nonexistent/tasks"),
        (["--benchmark", "builtin:train"], "builtin has no part 'train'"),
    ],
)
def test_bad_options_are_named(engine_env, tmp_path, args, message):
    tasks, script = engine_env
    result = CliRunner().invoke(
        main,
        [
            "evolve",
            "--run",
            str(tmp_path / "run"),
            "--fm",
            f"scripted:{script}",
            "--benchmark",
            f"taskdir:{tasks}",
            *args,
        ],
    )
    assert result.exit_code != 0, result.output
    assert message in result.output, result.output
    assert "Traceback" not in result.output


def test_invalid_config_file_is_named(engine_env, tmp_path):
    tasks, script = engine_env
    config = tmp_path / "dgm.toml"
    config.write_text("[evolve]\nalpha = 'high'\nmax_evals = 1\n")
    result = evolve(tmp_path / "run", tasks, script, *WORKERS, "--config", str(config))
    assert result.exit_code == 1, result.output
    assert "alpha = 'high' is not valid" in result.output, result.output
    config.write_text("[evolve\n")
    result = evolve(tmp_path / "run", tasks, script, *WORKERS, "--config", str(config), "--max-evals", "1")
    assert result.exit_code == 1
    assert "cannot read config file" in result.output


def test_a_task_whose_tests_crash_is_a_recorded_failure(bwrap, engine_env, tmp_path):
    tasks, script = engine_env
    crash = tasks / "text-slug-separators" / "hidden" / "tests" / "test_slug_spacing.py"
    crash.write_text("import os\n\nos.abort()\n")  # the test process dies while collecting
    run = tmp_path / "run"
    result = evolve(run, tasks, script, *WORKERS, "--max-expansions", "0", "--max-evals", "3")
    assert result.exit_code == 0, result.output
    with Archive.for_run(run) as ar:
        (ev,) = [e for e in ar.evaluations() if e.task_id == "text-slug-separators"]
        assert not ev.resolved
        assert json.loads(ar.blob(ev.log_blob))["reason"] == "no_results"


def test_an_agent_snapshot_over_the_size_limits_is_an_invalid_child(bwrap, engine_env, tmp_path):
    tasks, _ = engine_env
    big = {"name": "bash", "arguments": {"command": "head -c 25000000 /dev/zero > seed_agent/blob.bin"}}
    script = json.loads(json.dumps(SCRIPT))
    script["rules"][1]["reply"] = {"tool_calls": [big]}
    path = tmp_path / "big.json"
    path.write_text(json.dumps(script))
    run = tmp_path / "run"
    # 4 evaluations: 3 measure the seed, and a child is only made while one is left for it
    result = evolve(run, tasks, path, *WORKERS, "--max-expansions", "1", "--max-evals", "4")
    assert result.exit_code == 0, result.output
    with Archive.for_run(run) as ar:
        child = ar.nodes()[1]
        assert child.status == "invalid"
        assert "limit" in child.reason
        assert ar.integrity_check() == []


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small filesystem needs root")
def test_a_disk_that_fills_up_stops_the_run_without_losing_anything(bwrap, engine_env, tmp_path):
    """The run directory is on a small tmpfs; once the run is under way, a file eats the
    free space. The run stops with a clear message; after space is freed it resumes."""
    tasks, script = engine_env
    small = tmp_path / "small"
    small.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(small)], check=True)
    try:
        run = small / "run"
        flags = ["--max-expansions", "4", "--max-evals", "15", "--fm-backoff", "0.05"]
        proc = start(evolve_cmd(run, tasks, f"scripted:{script}", *flags))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if (run / "archive.db").exists():
                with Archive.for_run(run) as ar:
                    if len(ar.evaluations()) >= 4:
                        break
            time.sleep(0.2)
        free = shutil.disk_usage(small).free
        try:
            (small / "filler").write_bytes(b"\0" * (free - 4096))
        except OSError as exc:  # the run wrote meanwhile, so the filler filled the disk before its end
            if exc.errno != errno.ENOSPC:
                raise
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 1, out[-2000:]
        assert "is full" in out, out[-2000:]
        assert "to resume" in out, out[-2000:]
        (small / "filler").unlink()
        with Archive.for_run(run) as ar:
            assert ar.integrity_check() == []
            kept = {(e.node_id, e.task_id, e.resolved) for e in ar.evaluations()}
        assert len(kept) >= 4
        again = subprocess.run(evolve_cmd(run, tasks, f"scripted:{script}", *flags), capture_output=True, text=True)
        assert again.returncode == 0, again.stdout[-2000:] + again.stderr[-2000:]
        with Archive.for_run(run) as ar:
            assert ar.integrity_check() == []
            now = {(e.node_id, e.task_id, e.resolved) for e in ar.evaluations()}
        assert kept <= now
        assert len(now) == 15
    finally:
        subprocess.run(["umount", "-l", str(small)], check=False)
