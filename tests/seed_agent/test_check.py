"""The seed agent's own `check`, and its command line, run as the engine runs them."""

from __future__ import annotations

from dgm import agent_exec


def test_seed_agent_passes_its_own_check(bwrap, seed_code):
    result = agent_exec.check(bwrap, seed_code)
    assert result.exit_code == 0, result.stderr
    assert "OK" in result.stderr


def test_a_failing_agent_test_fails_check(bwrap, seed_code):
    tools = seed_code / "seed_agent" / "tools.py"
    tools.write_text(tools.read_text().replace("OUTPUT_LIMIT = 10_000", "OUTPUT_LIMIT = 10"))
    result = agent_exec.check(bwrap, seed_code)
    assert result.exit_code == 1
    assert "FAILED" in result.stderr


def test_an_agent_without_tests_fails_check(bwrap, seed_code):
    for test in (seed_code / "seed_agent" / "tests").glob("test_*.py"):
        test.unlink()
    result = agent_exec.check(bwrap, seed_code)
    assert result.exit_code == 1
    assert "no tests" in result.stderr


def test_the_seed_tree_holds_no_bytecode_and_is_readable(seed_code):
    files = list(seed_code.rglob("*"))
    assert not [f for f in files if "__pycache__" in f.parts or f.suffix == ".pyc"]
    assert (seed_code / "seed_agent" / "__main__.py").stat().st_mode & 0o004
