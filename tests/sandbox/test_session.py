"""The Session contract, the same on every backend (docker, bwrap, and the unisolated local)."""

from __future__ import annotations

import pytest

from sandbox import Limits, Mount, SandboxError, SandboxSpec, SessionClosed


def spec(tmp_path, **kw) -> SandboxSpec:
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    (src / "hello.txt").write_text("hello from the host\n")
    (src / "pkg").mkdir(exist_ok=True)
    (src / "pkg" / "run.sh").write_text("#!/bin/sh\necho run\n")
    (src / "pkg" / "run.sh").chmod(0o755)
    mounts = (Mount("/work", src, writable=True), Mount("/data", src))
    return SandboxSpec(mounts=mounts, workdir="/work", env={"GREETING": "hi"}, **kw)


def test_exec_basics(any_backend, tmp_path):
    with any_backend.start(spec(tmp_path)) as s:
        r = s.exec("cat hello.txt; echo $GREETING; echo err >&2; exit 3")
        assert (r.exit_code, r.stdout, r.stderr) == (3, "hello from the host\nhi\n", "err\n")
        assert not r.timed_out
        assert r.limit_hit is None
        assert not r.ok
        assert s.exec(["sh", "-c", "ls pkg"]).stdout == "run.sh\n"  # workdir is /work
        assert s.exec("cat", stdin="piped in\n").stdout == "piped in\n"
        assert s.exec("echo $GREETING-$EXTRA", env={"EXTRA": "x"}).stdout == "hi-x\n"
        assert s.exec("./pkg/run.sh").stdout == "run\n"
        if any_backend.isolating:  # unsandboxed enforces nothing; it only keeps the host copy safe
            assert s.exec("echo x > hello.txt", workdir="/data").exit_code != 0  # /data is read-only


def test_files_persist_across_execs_but_processes_do_not(any_backend, tmp_path):
    with any_backend.start(spec(tmp_path)) as s:
        assert s.exec("echo kept > /work/new.txt; echo tmp > /tmp/t.txt").ok
        assert s.exec("cat /work/new.txt /tmp/t.txt").stdout == "kept\ntmp\n"


def test_copy_in_and_copy_out_round_trip(any_backend, tmp_path):
    extra = tmp_path / "extra"
    (extra / "deep").mkdir(parents=True)
    (extra / "deep" / "f.bin").write_bytes(bytes(range(256)))
    with any_backend.start(spec(tmp_path)) as s:
        s.copy_in(extra, "/work/extra")
        s.copy_in(tmp_path / "src" / "hello.txt", "/work/nested/dir/hello2.txt")
        assert s.exec("cat /work/nested/dir/hello2.txt && ls /work/extra/deep").stdout == "hello from the host\nf.bin\n"
        assert s.exec("echo result > /work/extra/out.txt").ok
        out = s.copy_out("/work", tmp_path / "out")
        single = s.copy_out("/work/extra/out.txt", tmp_path / "single.txt")
        with pytest.raises(SandboxError, match="not inside any mount"):
            s.copy_out("/etc/passwd", tmp_path / "nope")
        if any_backend.isolating:
            with pytest.raises(SandboxError, match="read-only"):
                s.copy_in(extra, "/data/x")
        with pytest.raises(SandboxError, match="already exists"):
            s.copy_out("/work/hello.txt", tmp_path / "single.txt")
    assert (out / "extra" / "deep" / "f.bin").read_bytes() == bytes(range(256))
    assert (out / "pkg" / "run.sh").stat().st_mode & 0o111
    assert single.read_text() == "result\n"


def test_output_is_clipped_with_a_marker(any_backend, tmp_path):
    with any_backend.start(spec(tmp_path, limits=Limits(output_bytes=1000))) as s:
        r = s.exec("head -c 5000 /dev/zero | tr '\\0' x")
    assert r.limit_hit == "output"
    assert r.stdout.startswith("x" * 1000)
    assert "[dgm-sandbox: output clipped at 1000 bytes]" in r.stdout


def test_timeout_is_reported(any_backend, tmp_path):
    with any_backend.start(spec(tmp_path)) as s:
        r = s.exec("sleep 30", timeout=1)
    assert r.timed_out
    assert r.limit_hit == "wall"
    assert r.exit_code < 0
    assert r.duration_s < 10


def test_close_is_idempotent_and_final(any_backend, tmp_path):
    s = any_backend.start(spec(tmp_path))
    area = s.scratch.root
    assert area.exists()
    s.close()
    s.close()
    assert not area.exists()
    with pytest.raises(SessionClosed):
        s.exec("true")
    assert (tmp_path / "src" / "hello.txt").read_text() == "hello from the host\n"
    if any_backend.name == "docker":
        from sandbox.docker_backend import LABEL, owner_tag

        mine = any_backend.client().containers.list(all=True, filters={"label": f"{LABEL}={owner_tag()}"})
        assert mine == []


def test_bad_specs_are_refused(tmp_path):
    with pytest.raises(SandboxError, match="absolute"):
        Mount("relative/path", tmp_path)
    with pytest.raises(SandboxError, match="needs a source"):
        Mount("/ro")
    with pytest.raises(SandboxError, match="share a target"):
        SandboxSpec(mounts=(Mount("/a", tmp_path), Mount("/a/", tmp_path)))
    with pytest.raises(SandboxError, match="not a Unix socket"):
        SandboxSpec(socket=tmp_path)
