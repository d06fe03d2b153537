"""`dgm bench env build` end to end on a real SWE-bench row (SWE-bench's dev split, from
../shared/benchmarks): the image is built from Debian's and PyPI's packages with the
install itself offline, and the row then grades through its own eval script: the
reference resolves, the empty patch does not. A row whose image is neither pulled nor
built is refused, never graded elsewhere."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from dgm.cli import main
from dgm.suites import BenchmarkError, Grader, load_suite
from sandbox import foreign, get_backend
from tests.conftest import require
from tests.helpers import evaluate_with_bash, first_tool_output

pytestmark = pytest.mark.minutes(2.5)  # see tests/conftest.py

DEV = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "swebench-dev"
INSTANCE = "marshmallow-code__marshmallow-1164"


@pytest.fixture(scope="module")
def built(tmp_path_factory, availability):
    require("docker", availability)
    require("bwrap", availability)
    if not (DEV / "instances.jsonl").exists():
        pytest.fail(f"SWE-bench dev rows missing at {DEV} (see ../shared/benchmarks/README)")
    repos = tmp_path_factory.mktemp("clones")
    clone = repos / "marshmallow-code__marshmallow"
    subprocess.run(["git", "clone", "-q", str(DEV / "marshmallow.bundle"), str(clone)], check=True)
    rows = tmp_path_factory.mktemp("rows") / "instances.jsonl"
    lines = (DEV / "instances.jsonl").read_text().splitlines()
    rows.write_text("".join(line + "\n" for line in lines if json.loads(line)["instance_id"] == INSTANCE))
    args = ["bench", "env", "build", str(rows), "--repos", str(repos), "--only", INSTANCE, "--force"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert f"built  {INSTANCE}: dgm-env/sweb.eval.x86_64.marshmallow-code_1776_marshmallow-1164:latest" in result.output
    return rows


@pytest.mark.parametrize("backend_name", ["docker", "bwrap"])
def test_a_row_built_offline_grades_its_reference_and_not_the_empty_patch(built, backend_name, tmp_path):
    task = load_suite(f"swebench:{built}").task(INSTANCE)
    grader = Grader(get_backend(backend_name), tmp_path / "cache")
    reference, empty = grader.grade(task, task.reference_patch), grader.grade(task, "")
    assert reference.resolved, reference.log[-2000:]
    assert not empty.resolved and empty.reason == "tests_failed"
    assert set(empty.fail_to_pass.values()) == {"FAILED"}


def test_the_environments_pip_installs_offline_from_its_own_wheels(built):
    name = "dgm-env/sweb.eval.x86_64.marshmallow-code_1776_marshmallow-1164:latest"
    script = ". /opt/miniconda3/bin/activate && conda activate testbed && cd /testbed && pip install -q -e '.[dev]'"
    output = foreign.client().containers.run(name, ["/bin/bash", "-c", script + " && echo INSTALLED"], remove=True,
                                             network_mode="none")  # fmt: skip
    assert b"INSTALLED" in output


def test_a_row_whose_image_is_neither_pulled_nor_built_is_refused(tmp_path, availability):
    require("docker", availability)
    row = json.loads((DEV / "instances.jsonl").read_text().splitlines()[0])
    row["image"] = "swebench/sweb.eval.x86_64.dgm-test_1776_absent-1:latest"
    (tmp_path / "rows.jsonl").write_text(json.dumps(row) + "\n")
    task = load_suite(f"swebench:{tmp_path / 'rows.jsonl'}").tasks[0]
    with pytest.raises(BenchmarkError, match="neither .*absent-1:latest nor dgm-env/.*absent-1:latest is present"):
        Grader(get_backend("bwrap"), tmp_path / "cache").grade(task, "")


def test_the_image_holds_no_history_after_the_base_commit(built):
    """As the official build checks: no commit newer than the base (but the set-up commit
    the build makes on top of it, as the official build does)."""
    name = "dgm-env/sweb.eval.x86_64.marshmallow-code_1776_marshmallow-1164:latest"
    base = json.loads(built.read_text())["base_commit"]
    script = (
        f"cd /testbed && since=$(( $(git show -s --format=%ct {base}) + 1 ))"
        f" && git log --all --since=@$since --format=%s && git rev-parse HEAD~1"
    )
    out = foreign.client().containers.run(name, ["/bin/bash", "-c", script], remove=True, network_mode="none")
    assert out.decode().split("\n")[:2] == ["SWE-bench", base]


@pytest.mark.parametrize("backend_name", ["docker", "bwrap"])
def test_the_agent_runs_on_dgms_python_while_its_tools_see_the_tasks(built, backend_name, tmp_path):
    """The image has Python 3.9 and no openai: the agent still runs (on dgm's Python,
    mounted), and the commands it runs find the task's environment first."""
    command = "python --version && python -c 'import marshmallow; print(marshmallow.__file__)'"
    task = load_suite(f"swebench:{built}").task(INSTANCE)
    evaluation = evaluate_with_bash(get_backend(backend_name), task, command, tmp_path)
    assert evaluation.agent.result.exit_code == 0, evaluation.agent.result.stderr[-2000:]
    seen = first_tool_output(evaluation)
    assert "Python 3.9" in seen and "/testbed/src/marshmallow/__init__.py" in seen
    assert not evaluation.verdict.resolved and evaluation.patch == ""
