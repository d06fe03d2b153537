"""The attack suite: each attack is a script run inside a real sandbox, on docker and on
bwrap. A backend that cannot contain an attack fails here; nothing is skipped in CI."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from sandbox import Limits, Mount
from tests.sandbox.conftest import attack_spec


def run_attack(backend, script: str, *args: str, limits: Limits | None = None, mounts=(), timeout=60.0, **kw):
    spec = attack_spec(limits=limits or Limits(), mounts=mounts, **kw)
    with backend.start(spec) as session:
        result = session.exec(["python3", f"/attacks/{script}", *args], timeout=timeout)
    return result


def assert_contained(result) -> None:
    assert "ESCAPED" not in result.stdout + result.stderr, result.stdout + result.stderr


def host_processes_with(marker: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline and b"pytest" not in cmdline:
            found.append(f"{pid}: {cmdline!r}")
    return found


# --- network -------------------------------------------------------------------------
def test_tcp_udp_and_dns_egress_are_blocked(backend):
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen()
    tcp.settimeout(0.2)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.settimeout(0.2)
    result = run_attack(backend, "net_egress.py", str(tcp.getsockname()[1]), str(udp.getsockname()[1]))
    assert_contained(result)
    assert result.stdout.count("blocked: tcp") == 5
    assert result.stdout.count("blocked: dns") == 2
    with pytest.raises(TimeoutError):
        tcp.accept()
    with pytest.raises(TimeoutError):
        udp.recvfrom(100)
    tcp.close()
    udp.close()


# --- secrets ---------------------------------------------------------------------------
def test_host_secrets_are_out_of_reach(backend, planted_secret, monkeypatch):
    path, token = planted_secret
    monkeypatch.setenv("OPENAI_API_KEY", token)
    monkeypatch.setenv("DGM_TEST_HOST_SECRET", token)
    result = run_attack(backend, "read_secrets.py", str(path))
    assert_contained(result)
    assert token not in result.stdout + result.stderr
    assert "DGM_TEST_HOST_SECRET" not in result.stdout
    assert "OPENAI_API_KEY" not in result.stdout
    assert f"blocked: {path}" in result.stdout
    assert "blocked: /root" in result.stdout or "visible: /root: []" in result.stdout


# --- filesystem ------------------------------------------------------------------------
def test_writes_outside_writable_mounts_fail(backend, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    (ro / "keep.txt").write_text("original\n")
    before = {p.name: (p.read_bytes(), p.stat().st_mode) for p in ro.iterdir()}
    result = run_attack(backend, "write_outside.py", "/ro/new.txt", mounts=(Mount("/ro", ro),))
    assert_contained(result)
    assert result.stdout.count("blocked: write") == 9
    assert {p.name: (p.read_bytes(), p.stat().st_mode) for p in ro.iterdir()} == before
    assert not Path("/etc/dgm-pwned").exists()
    assert not Path("/dgm-pwned").exists()


def test_writable_mount_never_touches_its_host_source(backend, tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text("host copy\n")
    with backend.start(attack_spec(mounts=(Mount("/work", src, writable=True),))) as session:
        result = session.exec("echo changed > /work/a.txt; rm -f /work/a.txt; touch /work/b; cat /work/b && echo ok")
        assert result.ok, result.stderr
    assert sorted(p.name for p in src.iterdir()) == ["a.txt"]
    assert (src / "a.txt").read_text() == "host copy\n"


def test_fill_disk_stops_at_the_cap(backend, tmp_path):
    host_free = shutil.disk_usage("/").free
    limits = Limits(disk_mb=32, wall_s=60)
    result = run_attack(
        backend, "fill_disk.py", "/work/fill.bin", limits=limits, mounts=(Mount("/work", None, writable=True),)
    )
    assert_contained(result)
    assert result.stdout.count("blocked:") == 2
    assert result.limit_hit == "disk"
    assert shutil.disk_usage("/").free > host_free - 64 * 2**20


def test_symlink_planted_for_copy_out_is_not_followed(backend, planted_secret, tmp_path):
    path, token = planted_secret
    with backend.start(attack_spec(mounts=(Mount("/work", None, writable=True),))) as session:
        result = session.exec(["python3", "/attacks/plant_symlinks.py", str(path)])
        assert result.ok, result.stderr
        out = session.copy_out("/work/out", tmp_path / "out")
        with pytest.raises(Exception, match=r"symlink|not a directory"):
            session.copy_out("/work/out/etc_link/passwd", tmp_path / "passwd")
        with pytest.raises(Exception, match=r"symlink|not a directory"):
            session.copy_out("/work/out/sub/dir_link/api_key", tmp_path / "key")
    assert (out / "leak").is_symlink()
    assert os.readlink(out / "leak") == str(path)
    assert (out / "etc_link").is_symlink()
    assert (out / "sub" / "dir_link").is_symlink()
    assert (out / "real.txt").read_text() == "a real result\n"
    for file in out.rglob("*"):
        if file.is_file() and not file.is_symlink():
            assert token not in file.read_text()
    assert not (tmp_path / "passwd").exists()
    assert not (tmp_path / "key").exists()


# --- resources ---------------------------------------------------------------------------
def test_fork_bomb_is_contained(backend):
    marker = "dgm-fork-" + secrets.token_hex(4)
    start = time.monotonic()
    result = run_attack(backend, "fork_bomb.py", marker, limits=Limits(pids=64, wall_s=8), timeout=8)
    assert result.limit_hit in ("pids", "wall")
    assert time.monotonic() - start < 30
    assert subprocess.run(["true"]).returncode == 0  # the host can still fork
    assert host_processes_with(marker) == []


def test_memory_bomb_is_killed(backend):
    result = run_attack(backend, "memory_bomb.py", limits=Limits(memory_mb=256))
    assert_contained(result)
    assert result.limit_hit == "memory"
    assert result.exit_code != 0


def test_cpu_spin_past_the_cpu_limit_is_killed(backend):
    start = time.monotonic()
    result = run_attack(backend, "cpu_spin.py", limits=Limits(cpu_s=2, wall_s=30), timeout=30)
    assert result.limit_hit == "cpu"
    assert time.monotonic() - start < 20


def test_stdout_flood_is_clipped_and_stopped(backend):
    start = time.monotonic()
    result = run_attack(backend, "stdout_flood.py", limits=Limits(output_bytes=100_000))
    assert_contained(result)
    assert result.limit_hit == "output"
    assert "output clipped at 100000 bytes" in result.stdout
    assert len(result.stdout) < 100_000 + 200
    assert time.monotonic() - start < 20


def test_timeout_kills_double_forked_children_that_ignore_sigterm(backend):
    marker = "dgm-sleeper-" + secrets.token_hex(4)
    with backend.start(attack_spec()) as session:
        result = session.exec(["python3", "/attacks/sleeper_tree.py", marker], timeout=3)
        assert result.timed_out
        assert result.limit_hit == "wall"
        assert "children started" in result.stdout
        time.sleep(0.2)
        assert host_processes_with(marker) == []  # gone right after the exec, not only at close
        assert session.exec("echo still usable").stdout == "still usable\n"
    assert host_processes_with(marker) == []


def test_kill_minus_one_hurts_only_the_sandbox(backend):
    sentinel = subprocess.Popen(["sleep", "60"])
    try:
        with backend.start(attack_spec()) as session:
            session.exec(["python3", "/attacks/kill_all.py"], timeout=10)
            assert session.exec("echo alive").stdout == "alive\n"
        assert sentinel.poll() is None
    finally:
        sentinel.kill()
        sentinel.wait()


# --- privileges ------------------------------------------------------------------------------
def test_ptrace_of_outside_processes_fails(backend):
    result = run_attack(backend, "ptrace_outside.py", str(os.getpid()), str(os.getppid()))
    assert_contained(result)
    assert "pytest" not in result.stdout  # the host's processes are not even visible


def test_mount_unshare_and_chroot_fail(backend):
    result = run_attack(backend, "namespace_escape.py")
    assert_contained(result)
    assert "CapEff=0000000000000000" in result.stdout
    assert "NoNewPrivs=1" in result.stdout
    assert "uid=1000 euid=1000" in result.stdout
    assert result.stdout.count("blocked:") == 6


def test_setuid_binaries_give_no_root(backend, tmp_path, availability):
    rootfs_id = Path("/var/lib/dgm/rootfs")  # the image's own `id`, so it runs in the sandbox
    planted = tmp_path / "suid"
    planted.mkdir()
    candidates = sorted(rootfs_id.glob("*/usr/bin/id")) or [Path("/usr/bin/id")]
    shutil.copy(candidates[0], planted / "id")
    if os.geteuid() == 0:
        os.chown(planted / "id", 0, 0)
    os.chmod(planted / "id", 0o4755)
    result = run_attack(backend, "setuid.py", "/suid/id", mounts=(Mount("/suid", planted),))
    assert_contained(result)
    assert "euid via /suid/id: 1000" in result.stdout


def test_docker_socket_is_unreachable(backend):
    result = run_attack(backend, "docker_socket.py")
    assert_contained(result)
    assert result.stdout.count("blocked:") == 3


def test_gateway_socket_is_the_one_way_out(backend, tmp_path):
    sock_dir = Path("/var/tmp") / f"dgm-sock-{secrets.token_hex(4)}"
    sock_dir.mkdir(mode=0o755)
    path = sock_dir / "fm.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    os.chmod(path, 0o666)
    server.listen()

    def answer():
        conn, _ = server.accept()
        conn.sendall(b"hello from the gateway\n")
        conn.close()

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        with backend.start(attack_spec(socket=path)) as session:
            code = (
                "import os, socket; s = socket.socket(socket.AF_UNIX); s.connect(os.environ['DGM_FM_SOCKET']);"
                " print(s.recv(100).decode(), end='')"
            )
            result = session.exec(["python3", "-c", code], timeout=20)
        assert result.stdout == "hello from the gateway\n", result.stderr
    finally:
        server.close()
        shutil.rmtree(sock_dir)
