"""`make test`'s parallel workers: a test marked `alone` overlaps no other test, and the test
files go out longest first (`minutes`), those with an `alone` test last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SHARED = """
import json, time, pytest
@pytest.mark.parametrize("k", range(6))
def test_shared(k):
    start = time.time(); time.sleep(0.3)
    with open({log!r}, "a") as f: f.write(json.dumps([__name__ + str(k), start, time.time()]) + "\\n")
"""
ALONE = """
import json, time, pytest
@pytest.mark.alone
@pytest.mark.parametrize("k", range(2))
def test_alone(k):
    start = time.time(); time.sleep(1)
    with open({log!r}, "a") as f: f.write(json.dumps(["ALONE" + str(k), start, time.time()]) + "\\n")
"""


def suite_env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_XDIST_WORKER", None)
    return env


def test_an_alone_test_overlaps_no_other_under_xdist(tmp_path):
    log = tmp_path / "log.jsonl"
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "conftest.py").write_text("from tests.conftest import pytest_runtest_protocol  # noqa: F401\n")
    (suite / "pytest.ini").write_text("[pytest]\nmarkers =\n    alone: has the machine to itself\n")
    for i in range(4):
        (suite / f"test_shared{i}.py").write_text(SHARED.format(log=str(log)))
    (suite / "test_alone.py").write_text(ALONE.format(log=str(log)))
    env = suite_env()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "3", "--dist", "load", str(suite)],
        cwd=suite,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(rows) == 26
    alone = [r for r in rows if r[0].startswith("ALONE")]
    assert len(alone) == 2
    for a in alone:
        overlapping = [r[0] for r in rows if r is not a and r[1] < a[2] and r[2] > a[1]]
        assert overlapping == [], f"{a[0]} ran beside {overlapping}"
    shared = [r for r in rows if not r[0].startswith("ALONE")]
    assert any(r is not s and r[1] < s[2] and r[2] > s[1] for r in shared for s in shared), "nothing ran in parallel"


def test_files_marked_minutes_are_collected_first_longest_first_and_alone_ones_last(tmp_path):
    files = {
        "test_a.py": "def test_one():\n    pass\n",
        "test_b.py": "import pytest\npytestmark = pytest.mark.minutes(1)\ndef test_one():\n    pass\n",
        "test_c.py": "import pytest\n@pytest.mark.alone\ndef test_one():\n    pass\ndef test_two():\n    pass\n",
        "test_d.py": "import pytest\npytestmark = pytest.mark.minutes(2.5)\ndef test_one():\n    pass\n"
        "def test_two():\n    pass\n",
        "test_e.py": "def test_one():\n    pass\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_collection_modifyitems  # noqa: F401\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    alone: alone\n    minutes(n): minutes\n")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=tmp_path,
        env=suite_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    collected = [line for line in result.stdout.splitlines() if "::" in line]
    assert collected == [
        "test_d.py::test_one",
        "test_d.py::test_two",
        "test_b.py::test_one",
        "test_a.py::test_one",
        "test_e.py::test_one",
        "test_c.py::test_one",
        "test_c.py::test_two",
    ]
