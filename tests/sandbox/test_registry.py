"""The backend registry, the doctor and the sandbox CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dgm.cli import main
from sandbox import BACKENDS, SandboxError, get_backend, isolating
from sandbox.image import apt_mirror


def test_registry_names_the_three_backends():
    assert sorted(BACKENDS) == ["bwrap", "docker", "unsandboxed"]
    assert get_backend("local").name == "unsandboxed"  # its old name is still accepted
    assert all(get_backend(name).name == name for name in BACKENDS)
    assert isolating() == ("docker", "bwrap")  # picked automatically in this order; local only by name


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(SandboxError, match=r"unknown sandbox backend 'podman'.*docker, bwrap, unsandboxed"):
        get_backend("podman")


def test_cli_backend_choices_come_from_the_registry():
    result = CliRunner().invoke(main, ["sandbox", "run", "--help"])
    assert "[bwrap|docker|local|unsandboxed]" in result.output


def test_doctor_names_both_isolating_backends_working(availability):
    result = CliRunner().invoke(main, ["sandbox", "doctor"])
    lines = result.output.splitlines()
    for name in isolating():
        line = next(line for line in lines if line.startswith(name))
        if os.environ.get("CI"):
            assert "works" in line, result.output
            assert "NOT WORKING" not in line, result.output
    assert result.exit_code == (0 if any(availability(n).ok for n in isolating()) else 1)


def test_sandbox_run_cli(availability, tmp_path):
    if not availability("bwrap").ok:
        pytest.skip("bwrap does not work here")
    shared = tmp_path / "shared"  # pytest's tmp_path itself is private (0700) to its owner
    shared.mkdir(mode=0o755)
    (shared / "f.txt").write_text("from host\n")
    result = CliRunner().invoke(
        main, ["sandbox", "run", "--backend", "bwrap", "--mount", f"{shared}:/in", "--", "cat", "/in/f.txt"]
    )
    assert (result.exit_code, result.output) == (0, "from host\n")


def test_apt_mirror_is_read_from_sources(tmp_path, monkeypatch):
    sources = tmp_path / "sources.list.d"
    sources.mkdir()
    (sources / "debian.sources").write_text(
        "Types: deb\nURIs: http://mirror.invalid/debian\nSuites: bookworm bookworm-updates\nComponents: main\n\n"
        "Types: deb\nURIs: http://mirror.invalid/debian-security\nSuites: bookworm-security\nComponents: main\n"
    )
    assert apt_mirror(sources, tmp_path / "sources.list") == "http://mirror.invalid/debian"
    (sources / "debian.sources").unlink()
    (tmp_path / "sources.list").write_text("deb [arch=amd64] http://old.invalid/debian bookworm main\n")
    assert apt_mirror(sources, tmp_path / "sources.list") == "http://old.invalid/debian"
    (tmp_path / "sources.list").write_text("# nothing\n")
    with pytest.raises(SandboxError, match="--mirror"):
        apt_mirror(sources, tmp_path / "sources.list")


def test_one_registry_entry_puts_a_backend_under_the_attack_suite_and_the_doctor(tmp_path):
    """A plugin that registers a backend (tests/sandbox/dummy_backend.py) is all it takes:
    the attack suite is collected for it and the doctor examines it."""
    root = Path(__file__).resolve().parents[2]
    collect = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.sandbox.dummy_backend",
            "--collect-only",
            "-q",
            "tests/sandbox/test_attacks.py",
            "-p",
            "no:cacheprovider",
        ],
        cwd=root,
        capture_output=True,
        text=True,
    )
    ids = collect.stdout.splitlines()
    assert any("[dummy" in i for i in ids), collect.stdout[-2000:] + collect.stderr[-2000:]
    per_backend = {name: sum(f"[{name}" in i for i in ids) for name in ("docker", "bwrap", "dummy")}
    assert per_backend["dummy"] == per_backend["docker"] == per_backend["bwrap"] > 0  # every attack, for each
    code = "import tests.sandbox.dummy_backend; from dgm.cli import main; main()"
    doctor = subprocess.run([sys.executable, "-c", code, "sandbox", "doctor"], cwd=root, capture_output=True, text=True)
    assert "dummy   NOT WORKING: the dummy backend runs nothing" in doctor.stdout, doctor.stdout + doctor.stderr
    assert "dummy" not in BACKENDS  # registered in those processes only
