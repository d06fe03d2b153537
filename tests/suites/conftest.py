"""Benchmark fixtures: small suites in each source format, built by the tests themselves."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from dgm.suites import Grader
from dgm.suites.loaders.taskdir import BUILTIN_DIR

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]


@pytest.fixture
def grader(bwrap, tmp_path):
    return Grader(bwrap, tmp_path / "grade-cache")


def git(repo: Path, *args: str) -> str:
    return subprocess.run([*GIT, "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def diff_of(repo: Path, change) -> str:
    """Apply `change(repo)` to a scratch clone and return the git diff it makes."""
    change(repo)
    patch = git(repo, "diff")
    git(repo, "checkout", "--", ".")
    return patch + "\n"


@pytest.fixture
def swebench_rows(tmp_path):
    """A local clone with two base commits and two SWE-bench-style instances over it."""
    repo = tmp_path / "repos" / "acme__calc"
    (repo / "calc").mkdir(parents=True)
    (repo / "tests").mkdir()
    git(repo, "init", "-q")
    (repo / "calc" / "__init__.py").write_text("from .ops import add, mul\n")
    (repo / "calc" / "ops.py").write_text("def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n")
    (repo / "tests" / "test_basic.py").write_text(
        "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "first")
    first = git(repo, "rev-parse", "HEAD")
    fix_add = diff_of(
        repo, lambda r: (r / "calc/ops.py").write_text((r / "calc/ops.py").read_text().replace("a - b", "a + b"))
    )

    def add_test(name, body):
        def change(r):
            (r / "tests" / name).write_text(body)
            git(r, "add", "-N", f"tests/{name}")

        return change

    test_add = diff_of(
        repo, add_test("test_add.py", "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
    )
    (repo / "calc" / "ops.py").write_text(
        (repo / "calc/ops.py").read_text().replace("a - b", "a + b").replace("a * b", "a * b if a > 0 else 0")
    )
    git(repo, "commit", "-qam", "second (mul breaks for a < 0)")
    second = git(repo, "rev-parse", "HEAD")
    fix_mul = diff_of(
        repo,
        lambda r: (r / "calc/ops.py").write_text(
            (r / "calc/ops.py").read_text().replace("a * b if a > 0 else 0", "a * b")
        ),
    )
    test_mul = diff_of(
        repo,
        add_test(
            "test_mul_zero.py",
            "from calc import mul\n\n\ndef test_zero():\n    assert mul(0, 5) == 0\n\n\n"
            "def test_neg():\n    assert mul(-1, 5) == -5\n",
        ),
    )
    rows = [
        {
            "instance_id": "acme__calc-1",
            "repo": "acme/calc",
            "base_commit": first,
            "patch": fix_add,
            "test_patch": test_add,
            "problem_statement": "add(2, 3) gives -1",
            "version": "1.0",
            "FAIL_TO_PASS": json.dumps(["tests/test_add.py::test_add"]),
            "PASS_TO_PASS": json.dumps(["tests/test_basic.py::test_mul"]),
        },
        {
            "instance_id": "acme__calc-2",
            "repo": "acme/calc",
            "base_commit": second,
            "patch": fix_mul,
            "test_patch": test_mul,
            "problem_statement": "mul(-1, 5) is 0",
            "version": "1.1",
            "FAIL_TO_PASS": ["tests/test_mul_zero.py::test_neg"],
            "PASS_TO_PASS": ["tests/test_mul_zero.py::test_zero", "tests/test_basic.py::test_mul"],
        },
    ]
    return rows, tmp_path / "repos"


@pytest.fixture
def polyglot_dir(tmp_path):
    root = tmp_path / "polyglot-benchmark"
    exercises = {
        "leap": (
            "def leap_year(year):\n    pass\n",
            "def leap_year(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n",
            "import unittest\nfrom leap import leap_year\n\n\nclass LeapTest(unittest.TestCase):\n"
            "    def test_2000(self):\n        self.assertIs(leap_year(2000), True)\n\n"
            "    def test_1900(self):\n        self.assertIs(leap_year(1900), False)\n",
        ),
        "reverse_string": (
            "def reverse(text):\n    pass\n",
            "def reverse(text):\n    return text[::-1]\n",
            "import unittest\nfrom reverse_string import reverse\n\n\nclass ReverseTest(unittest.TestCase):\n"
            "    def test_word(self):\n        self.assertEqual(reverse('robot'), 'tobor')\n",
        ),
    }
    for name, (stub, example, test) in exercises.items():
        folder = root / "python" / "exercises" / "practice" / name
        (folder / ".meta").mkdir(parents=True)
        (folder / ".docs").mkdir()
        (folder / ".docs" / "instructions.md").write_text(f"# {name}\n\nImplement {name}.\n")
        (folder / f"{name}.py").write_text(stub)
        (folder / ".meta" / "example.py").write_text(example)
        (folder / f"{name}_test.py").write_text(test)
        (folder / ".meta" / "config.json").write_text(
            json.dumps(
                {"files": {"solution": [f"{name}.py"], "test": [f"{name}_test.py"], "example": [".meta/example.py"]}}
            )
        )
    (root / "cobol" / "exercises" / "practice" / "leap" / ".meta").mkdir(parents=True)  # a language with no command
    (root / "cobol" / "exercises" / "practice" / "leap" / ".meta" / "config.json").write_text("{}")
    return root


@pytest.fixture
def taskdir(tmp_path):
    root = tmp_path / "mytasks"
    root.mkdir()
    shutil.copytree(BUILTIN_DIR / "text-slug-separators", root / "text-slug-separators")
    return root
