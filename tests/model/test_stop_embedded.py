"""A real `dgm evolve` on the embedded model, stopped with two Ctrl-Cs while a model call
decodes: it exits cleanly (it used to die of a segfault, exit's C++ destructors running
under llama.cpp's decoding thread), its archive checks sound, and nothing it started is
left: no process (it runs under a subreaper that collects its orphans), no mount, no folder
in its own temp directory.

Marked `local_model`: in CI a missing model is installed first, as in test_local_model.py;
elsewhere the test is skipped without it (a 1.1 GB download)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from dgm import model
from dgm.cli import main

ROOT = Path(__file__).resolve().parents[2]
# Runs the command under it as a child subreaper: the command's orphans (a sandbox that
# outlived it) become its children, which it lists, kills and reaps after the command ends.
SUBREAPER = r"""
import ctypes, json, os, signal, subprocess, sys, time
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
proc = subprocess.Popen(sys.argv[2:], stdout=open(sys.argv[1], "w"), stderr=subprocess.STDOUT, start_new_session=True)
print(proc.pid, flush=True)
code = proc.wait()
time.sleep(1.0)
left = {}
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        name, stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)
        stat = stat.split()
        if int(stat[1]) == os.getpid() and stat[0] != "Z":  # a zombie ended: it is only reaped
            left[pid] = open(f"/proc/{pid}/cmdline").read().replace("\0", " ") or name
    except OSError:
        continue
try:
    os.killpg(proc.pid, 0)
    group = True
except ProcessLookupError:
    group = False
for pid in left:
    os.kill(int(pid), signal.SIGKILL)
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
print(json.dumps({"code": code, "left": left, "group_alive": group}), flush=True)
"""


def ensure_model() -> None:
    if model.runtime_installed() and model.model_path().exists():
        return
    if not os.environ.get("CI"):
        pytest.skip("the embedded model is not installed here (`dgm model install`: a 1.1 GB download)")
    installed = CliRunner().invoke(main, ["model", "install"])
    assert installed.exit_code == 0, installed.output


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_decoding(pid: int, log: Path, reaper: subprocess.Popen, limit_s: float = 150.0) -> None:
    """Until a job has started and the driver has spent 0.3 CPU-seconds a second, twice in a
    row: the model decoding a call (agents and tests run in sandboxes, other processes)."""
    deadline, busy = time.monotonic() + limit_s, 0
    while time.monotonic() < deadline and reaper.poll() is None:
        if re.search(r"\bjob \d+", log.read_text()):
            before = cpu_seconds(pid)
            time.sleep(1.0)
            busy = busy + 1 if cpu_seconds(pid) - before >= 0.3 else 0
            if busy >= 2:
                return
        else:
            time.sleep(0.5)
    pytest.fail(f"no model call decoding within {limit_s:g}s, or the run ended:\n{log.read_text()[-3000:]}")


@pytest.mark.local_model
@pytest.mark.minutes(1.5)
def test_two_ctrl_cs_while_the_embedded_model_decodes_stop_the_run_cleanly(bwrap):
    ensure_model()
    tmp = Path(tempfile.mkdtemp(prefix="dgm-stop-"))  # short: llama.cpp's socket path must fit
    tmp.chmod(0o755)  # sandbox uids reach their session areas in it
    try:
        run, log = tmp / "run", tmp / "out.log"
        temp = tmp / "tmp"
        temp.mkdir(mode=0o755)
        env = {**os.environ, "TMPDIR": str(temp)}
        env.pop("DGM_SANDBOX_DIR", None)
        dgm = [sys.executable, "-m", "dgm", "evolve", "--run", str(run), "--fm", "embedded", "--backend", "bwrap"]
        dgm += ["--benchmark", "builtin:dev", "--workers", "1", "--max-evals", "2", "--seed", "0"]
        reaper = subprocess.Popen(
            [sys.executable, "-c", SUBREAPER, str(log), *dgm], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
        )
        pid = int(reaper.stdout.readline())
        try:
            wait_for_decoding(pid, log, reaper)
            os.kill(pid, signal.SIGINT)
            time.sleep(1.0)
            os.kill(pid, signal.SIGINT)
            result = json.loads(reaper.communicate(timeout=120)[0])
        finally:
            if reaper.poll() is None:
                reaper.kill()
        out = log.read_text()
        assert result["code"] == 0, f"exit status {result['code']}:\n{out[-3000:]}"
        assert "stopped on request; resume with" in out
        assert result["left"] == {}, result
        assert not result["group_alive"], result
        checked = subprocess.run(
            [sys.executable, "-m", "dgm", "archive", "check", "--run", str(run)], capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert not [line for line in Path("/proc/self/mountinfo").read_text().splitlines() if str(tmp) in line]
        # the gateway's and the model's folders are gone; the sandboxes' shared root holds no session
        assert sorted(p.name for p in temp.iterdir()) in ([], ["dgm-sandbox"])
        sessions = temp / "dgm-sandbox"
        assert not [p for p in (sessions.iterdir() if sessions.exists() else ()) if re.match(r"\d+-", p.name)]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
