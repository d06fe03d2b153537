"""`dgm bench env build` end to end on a real SWE-bench row (SWE-bench's dev split, from
../shared/benchmarks): the image is built from Debian's and PyPI's packages with the
install itself offline, and the row then grades through its own eval script: the
reference resolves, the empty patch does not. A row whose image is neither pulled nor
built is refused, never graded elsewhere."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from dgm.cli import main
from dgm.suites import BenchmarkError, Grader, load_suite
from dgm.suites.swebench import envlayers, specs
from sandbox import SandboxSpec, foreign, get_backend
from sandbox.layers import Layers
from tests.conftest import require
from tests.helpers import evaluate_with_bash, first_tool_output

pytestmark = pytest.mark.minutes(2.5)  # see tests/conftest.py

DEV = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "swebench-dev"
INSTANCE = "marshmallow-code__marshmallow-1164"
SECOND = "marshmallow-code__marshmallow-1252"  # another version, the same environment spec
IMAGE = "dgm-env/sweb.eval.x86_64.marshmallow-code_1776_marshmallow-1164:latest"
SECOND_IMAGE = "dgm-env/sweb.eval.x86_64.marshmallow-code_1776_marshmallow-1252:latest"


@pytest.fixture(scope="module")
def clones(tmp_path_factory, availability) -> Path:
    require("docker", availability)
    require("bwrap", availability)
    if not (DEV / "instances.jsonl").exists():
        pytest.fail(f"SWE-bench dev rows missing at {DEV} (see ../shared/benchmarks/README)")
    repos = tmp_path_factory.mktemp("clones")
    clone = repos / "marshmallow-code__marshmallow"
    subprocess.run(["git", "clone", "-q", str(DEV / "marshmallow.bundle"), str(clone)], check=True)
    return repos


@pytest.fixture(scope="module")
def built(tmp_path_factory, clones):
    repos = clones
    rows = tmp_path_factory.mktemp("rows") / "instances.jsonl"
    lines = (DEV / "instances.jsonl").read_text().splitlines()
    rows.write_text("".join(line + "\n" for line in lines if json.loads(line)["instance_id"] in (INSTANCE, SECOND)))
    args = ["bench", "env", "build", str(rows), "--repos", str(repos), "--force", "--workers", "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output + result.stderr
    assert f" {INSTANCE}: {IMAGE}" in result.output
    assert f" {SECOND}: {SECOND_IMAGE}" in result.output
    assert "2 of 2 images present (2 built now, 0 before), 0 cannot be built" in result.output
    # the environment both stand on is built at most once (not at all when an earlier run built it)
    assert len(re.findall(r"dgm-swe-env:\S+: downloading wheels", result.stderr)) <= 1, result.stderr
    return rows


@pytest.mark.parametrize("backend_name", ["docker", "bwrap"])
def test_a_row_built_offline_grades_its_reference_and_not_the_empty_patch(built, backend_name, tmp_path):
    task = load_suite(f"swebench:{built}").task(INSTANCE)
    grader = Grader(get_backend(backend_name), tmp_path / "cache")
    reference, empty = grader.grade(task, task.reference_patch), grader.grade(task, "")
    assert reference.resolved, reference.log[-2000:]
    assert not empty.resolved
    assert empty.reason == "tests_failed"
    assert set(empty.fail_to_pass.values()) == {"FAILED"}
    # bwrap ran docker's own layers: no flattened copy of the image was unpacked for it
    assert not foreign.cached_rootfs(foreign.image_id(foreign.client(), IMAGE)).exists()


def test_the_environments_pip_installs_offline_from_its_own_wheels(built):
    name = IMAGE
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
    with pytest.raises(BenchmarkError, match=r"neither .*absent-1:latest nor dgm-env/.*absent-1:latest is present"):
        Grader(get_backend("bwrap"), tmp_path / "cache").grade(task, "")


def test_the_image_holds_no_history_after_the_base_commit(built):
    """As the official build checks: no commit newer than the base (but the set-up commit
    the build makes on top of it, as the official build does)."""
    name = IMAGE
    base = json.loads(built.read_text().splitlines()[0])["base_commit"]
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
    assert "Python 3.9" in seen
    assert "/testbed/src/marshmallow/__init__.py" in seen
    assert not evaluation.verdict.resolved
    assert evaluation.patch == ""


def test_instances_of_one_environment_share_its_layers_and_add_only_their_own(built):
    engine = foreign.client()
    images = {item.name: item for item in envlayers.images(engine)}
    first, second = images[IMAGE], images[SECOND_IMAGE]
    assert first.kind == second.kind == "instance"
    assert first.parent == second.parent
    assert images[first.parent].kind == "environment"
    assert images[images[first.parent].parent].kind == "base"
    assert second.own_bytes < 250e6, second  # the added instance: its own layer only
    # bwrap mounts the same folders docker keeps: the instances differ in their top layer only
    one, two = foreign.rootfs(IMAGE), foreign.rootfs(SECOND_IMAGE)
    assert isinstance(one, Layers)
    assert isinstance(two, Layers)
    assert one.dirs[1:] == two.dirs[1:]
    assert one.dirs[0] != two.dirs[0]


def test_bwrap_on_an_images_layers_sees_them_read_only_and_leaves_no_mount_behind(built):
    """The overlay of docker's layers is mounted as root for each command, in a mount
    namespace of the command's own: the sandbox cannot write it, and the host never sees it."""
    script = "touch /usr/bin/planted; echo > /testbed/setup.py; grep -c ' overlay ' /proc/self/mounts; python3 -V"
    with get_backend("bwrap").start(SandboxSpec(image=IMAGE)) as session:
        result = session.exec(["/bin/bash", "-c", script], timeout=60)
        area = str(session.scratch.root)
    assert result.stderr.count("Read-only file system") == 2, result.stderr
    assert "Python 3.9" in result.stdout + result.stderr
    assert int(result.stdout.split()[0]) >= 1  # the sandbox's root is the overlay
    assert area not in Path("/proc/self/mountinfo").read_text()


def test_env_build_exits_0_when_something_is_present_and_strict_makes_a_refusal_fail(built, tmp_path):
    refused = {"repo": "django/django", "version": "3.0", "instance_id": "django__django-1"}
    rows = tmp_path / "rows.jsonl"
    rows.write_text(built.read_text().splitlines()[0] + "\n" + json.dumps(refused) + "\n")
    args = ["bench", "env", "build", str(rows), "--repos", str(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "1 of 2 images present (0 built now, 1 before), 1 cannot be built: django__django-1" in result.output
    assert "disk:" in result.output
    assert "shared by 1 of these instances" in result.output
    assert CliRunner().invoke(main, [*args, "--strict"]).exit_code == 1


def test_prune_removes_an_instance_no_suite_needs_and_the_others_still_grade(built, tmp_path):
    keep = tmp_path / "keep.jsonl"
    keep.write_text(built.read_text().splitlines()[0] + "\n")  # the first row only
    dry = CliRunner().invoke(main, ["bench", "env", "prune", str(keep), "--dry-run"])
    assert dry.exit_code == 0
    assert f"would remove instance    {SECOND_IMAGE}" in dry.output
    assert foreign.present(SECOND_IMAGE)
    assert CliRunner().invoke(main, ["bench", "env", "prune"]).exit_code == 2  # neither FILE nor --all
    engine = foreign.client()
    others = {item.name for item in envlayers.images(engine) if item.kind == "instance"} - {SECOND_IMAGE}
    gone = envlayers.prune(engine, others)  # what this test made, and nothing another suite needs
    assert [item.name for item in gone] == [SECOND_IMAGE]
    assert not foreign.present(SECOND_IMAGE)
    task = load_suite(f"swebench:{built}").task(INSTANCE)
    for backend_name in ("docker", "bwrap"):
        verdict = Grader(get_backend(backend_name), tmp_path / backend_name).grade(task, task.reference_patch)
        assert verdict.resolved, verdict.log[-2000:]


def test_set_up_steps_beyond_apt_run_in_the_instance_and_apt_packages_in_the_environment(
    built, clones, tmp_path, monkeypatch
):
    """A spec whose set-up installs a Debian package, then uses it and edits the repository
    (Django's locales, Sphinx's and pytest's `sed` steps): the package is the environment's,
    the other steps run in the instance, in order, and their edit is in the set-up commit.
    Pruned afterwards, the environment goes with its last instance."""
    steps = ["apt-get update && apt-get install -y locales", "echo 'en_US.UTF-8 UTF-8' > /etc/locale.gen",
             "locale-gen", "sed -i '1i # edited by a set-up step' setup.py"]  # fmt: skip
    spec = {"python": "3.9", "install": "python -m pip install -e .", "pre_install": steps}
    monkeypatch.setattr(specs, "all_specs", lambda: {"marshmallow-code/marshmallow": {"0.0-dgm-test": spec}})
    row = {**json.loads(built.read_text().splitlines()[0]), "version": "0.0-dgm-test"}
    row["instance_id"], row["image"] = "dgm-test__setup-1", "swebench/sweb.eval.x86_64.dgm-test_1776_setup-1:latest"
    (tmp_path / "rows.jsonl").write_text(json.dumps(row) + "\n")
    name = "dgm-env/sweb.eval.x86_64.dgm-test_1776_setup-1:latest"
    engine = foreign.client()
    others = {item.name for item in envlayers.images(engine) if item.kind == "instance"} - {name}
    try:
        result = CliRunner().invoke(
            main, ["bench", "env", "build", str(tmp_path / "rows.jsonl"), "--repos", str(clones)]
        )
        assert result.exit_code == 0, result.output + result.stderr
        check = (
            "locale -a | grep -ix en_US.utf8 && cd /testbed && head -1 setup.py && git show --stat HEAD | grep setup.py"
        )
        out = engine.containers.run(name, ["/bin/bash", "-c", check], remove=True, network_mode="none").decode()
        assert out.split("\n")[:2] == ["en_US.utf8", "# edited by a set-up step"]
        assert "setup.py" in out.split("\n")[2]
        environment = next(item for item in envlayers.images(engine) if item.name == name).parent
        dpkg = engine.containers.run(environment, ["dpkg", "-s", "locales"], remove=True, network_mode="none")
        assert b"Status: install ok installed" in dpkg
    finally:
        gone = envlayers.prune(engine, others)
    assert [item.name for item in gone] == [name, environment]
