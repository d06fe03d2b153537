"""Recipes: `--recipe dgm|hgm|gea|darwinx` presets each system's levers below the config file
and the flags; one scripted run per recipe (real gateway, bwrap) shows its lever in the
archive. The levers' own tests (test_admission, test_gea, test_recombine, test_teacher,
tests/cli/test_agent_sources) go further."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from dgm.engine.config import ConfigError, resolve
from dgm.engine.recipes import RECIPES
from tests.engine.conftest import evidence_keeping_script, evidence_seen, evolve, evolve_ok


def test_a_recipe_sets_its_levers_and_flags_override_them():
    config = resolve({}, {"recipe": "darwinx"})
    assert (config.mode, config.admission, config.recombine) == ("hgm", "preserve_extend", 0.25)
    assert resolve({}, {"recipe": "darwinx", "recombine": 0.5}).recombine == 0.5
    assert resolve({"admission": "any"}, {"recipe": "darwinx"}).admission == "any"  # the file is above it
    assert resolve({}, {"recipe": "dgm"}).selector_name == "score_child_prop"
    with pytest.raises(ConfigError, match="recipe = 'alphaevolve' is not valid"):
        resolve({}, {"recipe": "alphaevolve"})


def test_dgm_recipes_lists_every_recipe_with_its_paper_and_levers():
    out = CliRunner().invoke(main, ["recipes"]).output
    for recipe in RECIPES.values():
        assert f"{recipe.name:8} {recipe.paper}" in out
        assert "sets: " + ", ".join(f"{k}={v}" for k, v in recipe.settings.items()) in out


@pytest.mark.parametrize(
    ("recipe", "mode", "selector"), [("dgm", "dgm", "score_child_prop"), ("hgm", "hgm", "cmp_thompson")]
)
def test_the_dgm_and_hgm_recipes_run_their_search(engine_env, tmp_path, bwrap, recipe, mode, selector):
    tasks, script = engine_env
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--recipe", recipe, "--max-expansions", "2", "--max-evals", "8", "--stages", "2")
    with Archive.for_run(run) as ar:
        stored = ar.run_config()
        assert (stored["recipe"], stored["mode"], stored["selector"]) == (recipe, mode, selector)
        assert len(ar.nodes()) >= 2


def test_the_gea_recipe_gives_meta_agents_their_groups_experience(engine_env, tmp_path, bwrap):
    tasks, _ = engine_env
    path = evidence_keeping_script(tmp_path)
    run = tmp_path / "run"
    evolve_ok(run, tasks, path, "--recipe", "gea", "--max-expansions", "4", "--max-evals", "16")
    with Archive.for_run(run) as ar:
        children = [n.id for n in ar.nodes() if n.parent_id is not None]
        groups = [m for child in children for m in evidence_seen(ar, child, tmp_path).get("group", [])]
    assert groups and all("tasks_this_agent_failed" in m for m in groups)


def test_the_darwinx_recipe_keeps_children_that_extend_nothing_out_of_parenthood(engine_env, tmp_path, bwrap):
    tasks, script = engine_env
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--recipe", "darwinx", "--max-expansions", "3", "--max-evals", "12")
    with Archive.for_run(run) as ar:
        children = [n for n in ar.nodes() if n.parent_id is not None]
        assert ar.run_config()["admission"] == "preserve_extend"
    assert children and {n.parent_id for n in children} == {1}
    shown = CliRunner().invoke(main, ["show", "--run", str(run), str(children[0].id)]).output
    assert "not a parent: preserve_extend" in shown


def test_a_resumed_run_keeps_its_recipe(engine_env, tmp_path, bwrap):
    tasks, script = engine_env
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--recipe", "darwinx", "--max-evals", "3")
    again = evolve(run, tasks, script, "--recipe", "gea", "--max-evals", "4")
    assert again.exit_code != 0 and "mode" in again.output
