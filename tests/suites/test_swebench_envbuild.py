"""What an offline build of SWE-bench environments can honour, decided from the specs
before anything is built: Debian's Pythons, PyPI's packages, apt-get installs and the
spec's other set-up steps; anything else is refused with its reason, and the CLI lists
every refusal."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dgm.cli import main
from dgm.suites.swebench import specs
from dgm.suites.swebench.specs import recipe, split_pre_install


def _row(repo: str, version: str, iid: str = "x__y-1") -> dict:
    return {"repo": repo, "version": version, "instance_id": iid}


def test_a_pip_installable_spec_is_built_on_the_debian_release_of_its_python():
    plan = recipe(_row("marshmallow-code/marshmallow", "3.0"))
    assert plan.buildable
    assert plan.debian == "bullseye"
    assert plan.install == "python -m pip install -e '.[dev]'"


def test_conda_package_names_become_pypi_requirements():
    plan = recipe(_row("psf/requests", "2.0"))
    assert plan.buildable
    assert plan.packages == ("pytest",)


def test_a_python_no_debian_release_ships_is_refused_with_the_reason():
    plan = recipe(_row("django/django", "3.0"))
    assert not plan.buildable
    assert plan.reason.startswith("Python 3.6 is not available offline")


def test_a_conda_environment_file_is_refused(monkeypatch):
    spec = {"python": "3.11", "packages": "environment.yml", "install": "python -m pip install -e ."}
    monkeypatch.setattr(specs, "all_specs", lambda: {"acme/env": {"1.0": spec}})
    plan = recipe(_row("acme/env", "1.0"))
    assert plan.reason == "its packages come from a conda environment file (conda-only)"


def test_set_up_steps_other_than_apt_get_run_in_the_instance_in_their_order():
    plan = recipe(_row("pytest-dev/pytest", "6.3"))
    assert plan.buildable
    assert plan.apt_packages == ()
    assert plan.pre_install == ("sed -i 's/>=>=/>=/' setup.cfg",)


def test_an_unknown_version_is_refused():
    plan = recipe(_row("marshmallow-code/marshmallow", "0.0.1"))
    assert plan.reason == "no environment spec for marshmallow-code/marshmallow version 0.0.1"


def test_leading_apt_get_steps_go_to_the_environment_and_the_rest_stays_in_order():
    """Django's: the locales package is the environment's (shared by its instances); the
    steps after it, which need it, run in each instance after it is installed."""
    steps = ["apt-get update && apt-get install -y locales", "echo 'en_US UTF-8' > /etc/locale.gen",
             "locale-gen en_US.UTF-8", "apt-get install -y late"]  # fmt: skip
    assert split_pre_install(steps) == (("locales",), tuple(steps[1:]))
    assert split_pre_install(["DEBIAN_FRONTEND=noninteractive apt-get install -y dvipng"]) == (("dvipng",), ())
    assert split_pre_install([]) == ((), ())
    plan = recipe(_row("pylint-dev/pylint", "2.8"))
    assert plan.buildable
    assert plan.apt_packages == ("libenchant-2-dev", "hunspell-en-us")
    assert plan.pre_install == ()


def test_env_build_lists_each_instance_it_cannot_build_and_fails_when_none_is_present(tmp_path):
    rows = [_row("django/django", "3.0", "django__django-1"), _row("acme/none", "1.0", "acme__none-1")]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = CliRunner().invoke(main, ["bench", "env", "build", str(tmp_path / "rows.jsonl"), "--repos", str(tmp_path)])
    assert result.exit_code == 1
    assert "cannot django__django-1: cannot be built offline: Python 3.6 is not available offline" in result.output
    assert (
        "cannot acme__none-1: cannot be built offline: no environment spec for acme/none version 1.0" in result.output
    )
    assert "0 of 2 images present (0 built now, 0 before), 2 cannot be built: django__django-1, acme__none-1" in (
        result.output
    )


def test_a_requirements_file_is_cleaned_and_its_includes_inlined_as_the_official_build_does():
    files = {
        "requirements/dev.txt": "-r tests.txt\n-e .\n# tools\n.[test]\ntypes-pkg_resources==0.1\nblack\n",
        "requirements/tests.txt": "pytest>=7\n# pinned\n",
    }
    text = specs.requirements_text(files.get, "requirements/dev.txt")
    assert text.split("\n") == ["pytest>=7", "", "types-setuptools", "black", ""]


def test_a_spec_that_names_a_requirements_file_uses_the_repositorys_known_paths():
    plan = recipe(_row("pallets/flask", "2.0"))
    assert plan.buildable
    assert plan.requirement_files == ("requirements/dev.txt",)
