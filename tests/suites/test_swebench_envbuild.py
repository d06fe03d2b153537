"""What an offline build of SWE-bench environments can honour, decided from the specs
before anything is built: Debian's Pythons, PyPI's packages, apt-get installs; anything
else is refused with its reason, and the CLI lists every refusal."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dgm.cli import main
from dgm.suites.swebench import specs
from dgm.suites.swebench.specs import apt_packages, recipe


def _row(repo: str, version: str, iid: str = "x__y-1") -> dict:
    return {"repo": repo, "version": version, "instance_id": iid}


def test_a_pip_installable_spec_is_built_on_the_debian_release_of_its_python():
    plan = recipe(_row("marshmallow-code/marshmallow", "3.0"))
    assert plan.buildable and plan.debian == "bullseye"
    assert plan.install == "python -m pip install -e '.[dev]'"


def test_conda_package_names_become_pypi_requirements():
    plan = recipe(_row("psf/requests", "2.0"))
    assert plan.buildable and plan.packages == ("pytest",)


def test_a_python_no_debian_release_ships_is_refused_with_the_reason():
    plan = recipe(_row("django/django", "3.0"))
    assert not plan.buildable and plan.reason.startswith("Python 3.6 is not available offline")


def test_a_conda_environment_file_is_refused(monkeypatch):
    spec = {"python": "3.11", "packages": "environment.yml", "install": "python -m pip install -e ."}
    monkeypatch.setattr(specs, "all_specs", lambda: {"acme/env": {"1.0": spec}})
    plan = recipe(_row("acme/env", "1.0"))
    assert plan.reason == "its packages come from a conda environment file (conda-only)"


def test_set_up_steps_other_than_apt_get_are_refused():
    plan = recipe(_row("matplotlib/matplotlib", "3.5"))
    assert plan.reason == "its spec runs set-up steps (pre_install) other than installing apt packages"


def test_an_unknown_version_is_refused():
    plan = recipe(_row("marshmallow-code/marshmallow", "0.0.1"))
    assert plan.reason == "no environment spec for marshmallow-code/marshmallow version 0.0.1"


def test_apt_get_steps_become_debian_packages_and_other_steps_refuse():
    assert apt_packages(["apt-get update && apt-get install -y libenchant-2-dev hunspell-en-us"]) == (
        "libenchant-2-dev",
        "hunspell-en-us",
    )
    assert apt_packages(["DEBIAN_FRONTEND=noninteractive apt-get install -y dvipng"]) == ("dvipng",)
    assert apt_packages(["apt-get update", 'wget -O "$TAR" "$URL"']) is None
    plan = recipe(_row("pylint-dev/pylint", "2.8"))
    assert plan.buildable and plan.apt_packages == ("libenchant-2-dev", "hunspell-en-us")


def test_env_build_lists_each_instance_it_cannot_build_and_fails(tmp_path):
    rows = [_row("django/django", "3.0", "django__django-1"), _row("acme/none", "1.0", "acme__none-1")]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = CliRunner().invoke(main, ["bench", "env", "build", str(tmp_path / "rows.jsonl"), "--repos", str(tmp_path)])
    assert result.exit_code == 1
    assert "cannot django__django-1: Python 3.6 is not available offline" in result.output
    assert "cannot acme__none-1: no environment spec for acme/none version 1.0" in result.output
    assert result.output.rstrip().endswith("0 built, 2 cannot be built offline")


def test_a_requirements_file_is_cleaned_and_its_includes_inlined_as_the_official_build_does():
    files = {
        "requirements/dev.txt": "-r tests.txt\n-e .\n# tools\n.[test]\ntypes-pkg_resources==0.1\nblack\n",
        "requirements/tests.txt": "pytest>=7\n# pinned\n",
    }
    text = specs.requirements_text(files.get, "requirements/dev.txt")
    assert text.split("\n") == ["pytest>=7", "", "types-setuptools", "black", ""]


def test_a_spec_that_names_a_requirements_file_uses_the_repositorys_known_paths():
    plan = recipe(_row("pallets/flask", "2.0"))
    assert plan.buildable and plan.requirement_files == ("requirements/dev.txt",)
