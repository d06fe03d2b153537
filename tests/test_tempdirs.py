"""The temp folders dgm makes carry their owner's pid and start time, and a new gateway or
grader sweeps those whose owner is dead: never one whose owner runs, nor another user's."""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from dgm import tempdirs
from dgm.gateway import Gateway
from dgm.gateway.scripted import ScriptedUpstream
from dgm.suites import Grader
from sandbox import get_backend


@pytest.fixture
def temp(monkeypatch):
    """A temp directory of the test's own, so that nothing outside it is swept; short, since a
    gateway's socket goes in it (pytest's own tmp_path under xdist is past a socket path's 108)."""
    folder = Path(tempfile.mkdtemp(prefix="dgm-t-", dir="/tmp"))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def dead_owner() -> tuple[int, int]:
    proc = subprocess.Popen(["sleep", "30"])
    started = tempdirs.start_time(proc.pid)
    proc.kill()
    proc.wait()
    return proc.pid, started


def folder(root, kind: str, pid: int, started: int):
    path = root / f"{kind}{pid}-{started}-abcd_123"
    (path / "sub").mkdir(parents=True)
    (path / "sub" / "file").write_text("left")
    return path


def test_a_folder_whose_owner_is_dead_is_removed_and_one_whose_owner_runs_is_kept(temp):
    pid, started = dead_owner()
    dead = [folder(temp, kind, pid, started) for kind in tempdirs.KINDS]
    mine = tempdirs.make(tempdirs.GATEWAY)
    assert mine.name.startswith(f"dgm-gw-{os.getpid()}-{tempdirs.start_time(os.getpid())}-")
    live_child = subprocess.Popen(["sleep", "30"])
    try:
        child = folder(temp, tempdirs.EMBEDDED, live_child.pid, tempdirs.start_time(live_child.pid))
        reused = folder(temp, tempdirs.GRADE, os.getpid(), tempdirs.start_time(os.getpid()) + 1)  # pid reused since
        other = [temp / "dgm-gw-abc", temp / "dgm-gw-x7q1k2", temp / "unrelated"]  # not names dgm gives
        for path in other:
            path.mkdir()
        assert sorted(tempdirs.sweep()) == sorted([*dead, reused])
        assert all(p.exists() for p in [mine, child, *other])
        assert not any(p.exists() for p in [*dead, reused])
    finally:
        live_child.kill()
        live_child.wait()


def test_a_zombie_owner_is_dead(temp):
    proc = subprocess.Popen(["true"])
    path = folder(temp, tempdirs.GATEWAY, proc.pid, tempdirs.start_time(proc.pid) or 0)
    while tempdirs.start_time(proc.pid) is not None:  # exited, not yet reaped: a zombie
        os.sched_yield()
    assert tempdirs.sweep() == [path]
    proc.wait()


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_another_users_folder_is_never_removed(temp):
    path = folder(temp, tempdirs.GATEWAY, *dead_owner())
    os.chown(path, 65534, 65534)
    assert tempdirs.sweep() == []
    assert path.exists()


def test_a_gateway_sweeps_what_dead_ones_left_and_removes_its_own_folder(temp):
    left = folder(temp, tempdirs.GATEWAY, *dead_owner())
    script = {"rules": [{"when": {}, "reply": {"content": "hi"}}]}
    with Gateway(ScriptedUpstream(script)) as gateway:
        assert not left.exists()
        own = gateway.socket_path.parent
        assert own.parent == temp
        assert tempdirs.owner(own.name) == (os.getpid(), tempdirs.start_time(os.getpid()))
    assert list(temp.iterdir()) == []


def test_a_grader_without_a_cache_folder_makes_its_own_and_removes_it(temp):
    left = folder(temp, tempdirs.GRADE, *dead_owner())
    grader = Grader(get_backend("unsandboxed"))
    assert not left.exists()
    assert tempdirs.owner(grader.cache.name)[0] == os.getpid()
    (grader.cache / "bases").mkdir()
    del grader
    gc.collect()
    assert list(temp.iterdir()) == []
