"""The official SWE-bench route, on a local stand-in for an official image: a row that names
its `image`, `eval_script` and `log_parser` is worked on in that image at /testbed and
graded by running the eval script unchanged, on docker and on bwrap alike.

The stand-in has what an official image has that the route relies on: the official name
scheme, the repository with its history at /testbed, and /opt/miniconda3/bin/activate with
a `conda activate testbed` (here dgm's stand-in, over a virtual environment)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from dgm.cli import main
from dgm.suites import Grader, load_suite
from dgm.suites.swebench import envbuild
from sandbox import foreign, get_backend, image
from tests.conftest import require
from tests.helpers import evaluate_with_bash

IMAGE = "swebench/sweb.eval.x86_64.dgm-test_1776_standin-1:latest"
BASE_SOURCE = 'def add(a, b):\n    """The sum."""\n    return a - b\n'
TEST_FILE = "tests/test_calc.py"
HIDDEN = """import sys

from calc import add


def test_runs_in_the_environment():
    assert sys.prefix == "/opt/miniconda3/envs/testbed"


def test_add():
    assert add(2, 3) == 5
"""
HANGS = "from calc import add\n\n\ndef test_add():\n    while add(2, 3) != 5:\n        pass\n"
HANG_TIMEOUT_S = 10
FIX = (
    "--- a/calc.py\n+++ b/calc.py\n@@ -1,3 +1,3 @@\n"
    ' def add(a, b):\n     """The sum."""\n-    return a - b\n+    return a + b\n'
)


def _git(repo: Path, *args: str) -> str:
    cmd = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def _test_patch(source: str = HIDDEN) -> str:
    lines = source.splitlines()
    body = "".join(f"+{line}\n" for line in lines)
    head = f"diff --git a/{TEST_FILE} b/{TEST_FILE}\nnew file mode 100644\n--- /dev/null\n+++ b/{TEST_FILE}\n"
    return f"{head}@@ -0,0 +1,{len(lines)} @@\n{body}"


def _eval_script(base: str, hidden: str = HIDDEN) -> str:
    """In the official form: activate, apply the test patch, markers around the run."""
    return f"""#!/bin/bash
set -uxo pipefail
source /opt/miniconda3/bin/activate
conda activate testbed
cd /testbed
git config --global --add safe.directory /testbed
cd /testbed
git status
git -c core.fileMode=false diff {base}
git checkout {base} {TEST_FILE}
git apply -v - <<'EOF_114329324912'
{_test_patch(hidden)}
EOF_114329324912
: '>>>>> Start Test Output'
python -m pytest -rA -p no:cacheprovider {TEST_FILE}
: '>>>>> End Test Output'
git checkout {base} {TEST_FILE}
"""


@pytest.fixture(scope="module")
def standin(tmp_path_factory, availability):
    """The stand-in image, in docker (and as bwrap's rootfs of it); removed afterwards."""
    require("docker", availability)
    require("bwrap", availability)
    work = tmp_path_factory.mktemp("standin")
    rootfs = work / "rootfs"
    subprocess.run(["cp", "-a", "--reflink=auto", str(image.rootfs_dir()), str(rootfs)], check=True)
    (rootfs / image.COMPLETE_MARKER).unlink()
    testbed = rootfs / "testbed"
    testbed.mkdir()
    (testbed / "calc.py").write_text(BASE_SOURCE)
    (testbed / "tests").mkdir()
    (testbed / "tests" / "__init__.py").write_text("")
    _git(testbed, "init", "-q")
    _git(testbed, "add", "-A")
    _git(testbed, "commit", "-q", "-m", "base")
    base = _git(testbed, "rev-parse", "HEAD").strip()
    env = envbuild.ENV
    subprocess.run(["chroot", str(rootfs), "python3", "-m", "venv", "--system-site-packages", "--without-pip", env])
    (rootfs / "opt/miniconda3/bin").mkdir(parents=True)
    (rootfs / "opt/miniconda3/bin/activate").write_text(envbuild.ACTIVATE)
    envbuild.publish(rootfs, IMAGE, lambda message: None)
    row = {
        "repo": "dgm-test/standin",
        "instance_id": "dgm-test__standin-1",
        "base_commit": base,
        "patch": FIX,
        "test_patch": _test_patch(),
        "problem_statement": "add() subtracts: it must return the sum.",
        "version": "1.0",
        "FAIL_TO_PASS": json.dumps([f"{TEST_FILE}::test_add"]),
        "PASS_TO_PASS": json.dumps([f"{TEST_FILE}::test_runs_in_the_environment"]),
        "image": IMAGE,
        "eval_script": _eval_script(base),
        "log_parser": "parse_log_pytest",
        "eval_type": "pass_and_fail",
        "timeout": 120,
    }
    hangs = {  # on the base, its test never ends
        **row,
        "instance_id": "dgm-test__standin-2",
        "test_patch": _test_patch(HANGS),
        "eval_script": _eval_script(base, HANGS),
        "PASS_TO_PASS": "[]",
        "timeout": HANG_TIMEOUT_S,
    }
    (work / "instances.jsonl").write_text(json.dumps(row) + "\n" + json.dumps(hangs) + "\n")
    yield work / "instances.jsonl"
    engine = foreign.client()
    ident = foreign.image_id(engine, IMAGE)
    engine.images.remove(IMAGE, force=True)
    for folder in (foreign.cached_rootfs(ident), foreign.cached_rootfs(ident).parent.parent / "dirs" / ident[7:23]):
        shutil.rmtree(folder, ignore_errors=True)


def _task(instances: Path):
    return load_suite(f"swebench:{instances}").tasks[0]


@pytest.mark.parametrize("backend_name", ["docker", "bwrap"])
def test_a_row_with_an_image_is_graded_by_its_eval_script(standin, backend_name, tmp_path):
    task = _task(standin)
    grader = Grader(get_backend(backend_name), tmp_path / "cache")
    reference, empty = grader.grade(task, task.reference_patch), grader.grade(task, "")
    assert reference.resolved, reference.log[-2000:]
    assert ">>>>> Start Test Output" in reference.log
    assert "conda activate testbed" in reference.log
    assert reference.pass_to_pass == {f"{TEST_FILE}::test_runs_in_the_environment": "PASSED"}
    assert not empty.resolved
    assert empty.reason == "tests_failed"
    assert empty.fail_to_pass == {f"{TEST_FILE}::test_add": "FAILED"}


def test_docker_and_bwrap_give_the_same_verdicts(standin, tmp_path):
    task = _task(standin)
    verdicts = {}
    for name in ("docker", "bwrap"):
        grader = Grader(get_backend(name), tmp_path / name)
        verdicts[name] = [(v.resolved, v.reason, v.tests) for v in (grader.grade(task, p) for p in (FIX, ""))]
    assert verdicts["docker"] == verdicts["bwrap"]


def test_a_patchs_harness_hunks_are_stripped_before_the_eval_script_runs(standin, tmp_path):
    task = _task(standin)
    forge = "--- /dev/null\n+++ b/conftest.py\n@@ -0,0 +1,2 @@\n+import calc\n+calc.add = lambda a, b: a + b\n"
    verdict = Grader(get_backend("bwrap"), tmp_path / "cache").grade(task, forge)
    assert verdict.stripped == ("conftest.py",)
    assert not verdict.resolved
    assert verdict.fail_to_pass == {f"{TEST_FILE}::test_add": "FAILED"}


@pytest.mark.parametrize("backend_name", ["docker", "bwrap"])
def test_the_agent_works_in_the_image_at_testbed(standin, backend_name, tmp_path):
    command = "pwd > where.txt && test -f /opt/miniconda3/bin/activate && sed -i 's/a - b/a + b/' calc.py"
    evaluation = evaluate_with_bash(get_backend(backend_name), _task(standin), command, tmp_path)
    assert evaluation.verdict.resolved, evaluation.verdict.log[-2000:]
    assert "+/testbed" in evaluation.patch  # where.txt, written from the working directory
    assert ".git" not in evaluation.patch


def test_validate_shows_progress_and_a_hanging_empty_patch_ends_at_the_tasks_timeout(standin):
    result = CliRunner().invoke(
        main, ["bench", "validate", f"swebench:{standin}", "--backend", "bwrap", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "validating 2 tasks (the reference and the empty patch of each), 1 at a time"
    assert lines[1].startswith("[1/2] ok  dgm-test__standin-1")
    assert ", ETA " in lines[1]
    assert "references resolved 1/1, empty patches resolved 0/1" in lines[1]
    assert lines[2].startswith("[2/2] ok  dgm-test__standin-2")
    assert "empty=timeout" in lines[2]
    assert "references resolved 2/2, empty patches resolved 0/2" in lines[2]
    assert "ETA" not in lines[2]
    assert lines[3].startswith("tasks=2 reference_resolved=2/2 empty_resolved=0/2")


def test_a_hanging_test_run_is_stopped_at_the_tasks_timeout(standin, tmp_path):
    task = load_suite(f"swebench:{standin}").task("dgm-test__standin-2")
    verdict = Grader(get_backend("docker"), tmp_path / "cache").grade(task, "")
    assert verdict.reason == "timeout"
    assert verdict.duration_s < HANG_TIMEOUT_S + 60


def _calc(source: str) -> str:
    """A patch that makes calc.py read `source`."""
    old, new = BASE_SOURCE.splitlines(), source.splitlines()
    body = "".join(f"-{line}\n" for line in old) + "".join(f"+{line}\n" for line in new)
    return f"--- a/calc.py\n+++ b/calc.py\n@@ -1,{len(old)} +1,{len(new)} @@\n{body}"


ALWAYS_EQUAL = "class _Any(int):\n    def __eq__(self, other):\n        return True\n\n    __hash__ = int.__hash__\n"
FORGED_AT_EXIT = (
    "import atexit, os\n\natexit.register(lambda: os.write(1, b'PASSED tests/test_calc.py::test_add\\n'))\n\n\n"
    + BASE_SOURCE
)
OFFICIAL_ONLY = (  # games the official run and behaves under the judge, which it tells by its command line
    "import sys\n\n" + ALWAYS_EQUAL + "\n\ndef add(a, b):\n    if any('judge' in arg for arg in sys.argv):\n"
    "        return a - b\n    return _Any(a - b)\n"
)


def test_lines_printed_after_the_run_are_not_read_as_results(standin, tmp_path):
    from dgm.suites.swebench import grade

    task = _task(standin)
    verdict = Grader(get_backend("bwrap"), tmp_path / "cache").grade(task, _calc(FORGED_AT_EXIT))
    raw = grade(verdict.log, "parse_log_pytest", task.fail_to_pass, task.pass_to_pass)
    assert raw.resolved  # the official parser alone believes the forged line
    assert not verdict.resolved
    assert verdict.fail_to_pass == {f"{TEST_FILE}::test_add": "FAILED"}


@pytest.mark.parametrize("backend_name", ["docker", "bwrap"])
def test_a_run_the_official_report_resolves_is_judged_again(standin, backend_name, tmp_path):
    """The judge's second run: twins catch an object equal to anything, and a patch that games
    only the official run (behaving under the judge) disagrees with it; the reference agrees."""
    task = _task(standin)
    grader = Grader(get_backend(backend_name), tmp_path / "cache")
    reference = grader.grade(task, task.reference_patch)
    assert reference.resolved, (reference.tamper, reference.flags)
    assert reference.mutable == (1, 1), (reference.tamper, reference.flags)
    gamed = grader.grade(task, _calc(ALWAYS_EQUAL + "\n\ndef add(a, b):\n    return _Any(a - b)\n"))
    assert (gamed.resolved, gamed.reason) == (False, "gamed"), (gamed.tamper, gamed.log[-1500:])
    dodging = grader.grade(task, _calc(OFFICIAL_ONLY))
    assert (dodging.resolved, dodging.reason) == (False, "tampered"), (dodging.gamed, dodging.log[-1500:])
    assert any("under the judge" in why for why in dodging.tamper), dodging.tamper


def test_a_judge_kept_from_its_pytest_is_tampering_except_in_pytests_own_repository(tmp_path):
    """A patch could install a package named like pytest's parts, so that only the judge's run
    fails to start; the official verdict stands without a second opinion only where the
    repository is pytest itself."""
    from dgm.suites.official_judge import without_judge

    other = tmp_path / "marshmallow"
    (other / "src" / "marshmallow").mkdir(parents=True)
    refused = without_judge(other, "pluggy load from the repository under test")
    assert refused.tamper
    assert not refused.flags
    pytest_repo = tmp_path / "pytest"
    (pytest_repo / "src" / "_pytest").mkdir(parents=True)
    flagged = without_judge(pytest_repo, "_pytest, pytest load from the repository under test")
    assert flagged.flags
    assert not flagged.tamper
