"""The `dgm` command line, through click's CliRunner."""

from __future__ import annotations

import json
import zlib

import click
import pytest
from click.testing import CliRunner

from archive import Archive
from dgm import __version__
from dgm.cli import main
from tests.helpers import write_tree


@pytest.fixture
def run_dir(tmp_path):
    run = tmp_path / "run"
    src = write_tree(tmp_path / "src", {"agent.py": "def solve():\n    return 42\n" * 50, "empty": None})
    with Archive.for_run(run, create=True) as ar:
        root = ar.add_child(None, src, status="valid")
        ar.add_evaluation(root.id, "dev", "t1", True)
        ar.jobs.enqueue("expand", {"parent": root.id})
    return run


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_version():
    result = invoke("--version")
    assert result.exit_code == 0
    assert __version__ in result.output


def test_stats(run_dir):
    result = invoke("archive", "stats", "--run", str(run_dir))
    assert result.exit_code == 0
    assert "nodes        1 (pending 0, valid 1" in result.output
    assert "jobs         queued 1" in result.output
    data = json.loads(invoke("archive", "stats", "--run", str(run_dir), "--json").output)
    assert data["nodes"] == 1
    assert data["evaluations"] == 1
    assert data["blobs"] == 1


def test_check_passes_on_sound_archive(run_dir):
    result = invoke("archive", "check", "--run", str(run_dir))
    assert result.exit_code == 0
    assert result.output.startswith("ok:")


def test_check_reports_a_flipped_byte_on_disk(run_dir):
    """Flip one byte of a blob's stored bytes in the database file itself."""
    db = run_dir / "archive.db"
    content = ("def solve():\n    return 42\n" * 50).encode()
    stored = zlib.compress(content, 6)
    raw = bytearray(db.read_bytes())  # the archive was closed, so the WAL is checkpointed
    at = raw.find(stored)
    assert at > 0, "the blob's bytes should be in the main database file"
    raw[at + len(stored) // 2] ^= 0x01
    db.write_bytes(bytes(raw))
    result = CliRunner().invoke(main, ["archive", "check", "--run", str(run_dir)])
    assert result.exit_code == 1
    assert "blob" in result.output
    assert "corrupt" in result.output
    assert "1 problem(s) found" in result.output


def test_missing_run_dir_is_a_clean_error(tmp_path):
    result = CliRunner().invoke(main, ["archive", "stats", "--run", str(tmp_path / "nowhere")])
    assert result.exit_code == 1
    assert "no run directory" in result.output
    assert not (tmp_path / "nowhere").exists()


def test_run_dir_without_archive_is_a_clean_error(tmp_path):
    result = CliRunner().invoke(main, ["archive", "check", "--run", str(tmp_path)])
    assert result.exit_code == 1
    assert "no archive at" in result.output
    assert not (tmp_path / "archive.db").exists()


def test_garbage_archive_is_a_clean_error(tmp_path):
    (tmp_path / "archive.db").write_bytes(b"\x00garbage" * 1000)
    result = CliRunner().invoke(main, ["archive", "stats", "--run", str(tmp_path)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "not a usable dgm archive" in result.output


def _commands(group: click.Group, prefix: str = ""):
    for name, cmd in group.commands.items():
        yield f"{prefix}{name}", cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, f"{prefix}{name} ")


def test_every_command_and_option_has_help():
    missing = []
    for path, cmd in [("dgm", main), *_commands(main)]:
        if not (cmd.help or "").strip():
            missing.append(f"command '{path}'")
        for param in cmd.params:
            if isinstance(param, click.Option) and not (param.help or "").strip():
                missing.append(f"option {param.opts[0]} of '{path}'")
    assert missing == []


def test_evolve_help_comes_from_the_registries_and_the_config_defaults():
    """Every choice --help describes is a registry entry, and every default it shows is
    RunConfig's own (no copy to go stale)."""
    from dgm.engine.config import RunConfig
    from dgm.engine.policies import POLICIES
    from dgm.executors import EXECUTORS
    from dgm.gateway import UPSTREAMS

    text = " ".join(CliRunner().invoke(main, ["evolve", "--help"], terminal_width=2000).output.split())
    for registry in (POLICIES, EXECUTORS, UPSTREAMS):
        for name, cls in registry.items():
            assert f"{getattr(cls, 'usage', name)}: {cls.summary}" in text
    defaults = RunConfig()
    assert f"Stop after this many task evaluations. [{defaults.max_evals}]" in text
    assert f"[{','.join(map(str, defaults.stages))}]" in text
    assert f"[{defaults.backend}]" in text


def test_each_local_has_a_name_that_says_what_it_is_and_the_old_one_still_works():
    """'local' named a sandbox backend, an executor and an upstream; each has its own name
    now, and 'local' is still accepted for each (stored runs and scripts keep working)."""
    from dgm.engine.config import RunConfig, auto_fm
    from dgm.executors import for_config
    from dgm.gateway import upstream_name
    from sandbox import get_backend

    assert get_backend("local").name == "unsandboxed"
    assert not get_backend("local").isolating
    assert for_config(RunConfig(executor="local")).name == for_config(RunConfig()).name == "threads"
    assert upstream_name("local") == upstream_name("local:/models/x.gguf") == "embedded" == auto_fm({})
    for flag, value in (("--backend", "local"), ("--executor", "local")):
        result = CliRunner().invoke(main, ["evolve", "--run", "/nonexistent/r", flag, value, "--help"])
        assert result.exit_code == 0, result.output
