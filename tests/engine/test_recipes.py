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
from tests.engine.conftest import (
    branching_script,
    evidence_keeping_script,
    evidence_seen,
    evolve,
    evolve_ok,
    fix_call,
    quick_seed_agent,
)

pytestmark = pytest.mark.minutes(5)  # see tests/conftest.py


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
    assert groups
    assert all("tasks_this_agent_failed" in m for m in groups)


def test_the_darwinx_recipe_refuses_a_regressing_child_and_recombines_two_lineages(engine_env, tmp_path, bwrap):
    """Three branches from the seed: the first also fixes pagination, the second also fixes
    interval merging (each extends the seed: admitted), the third loses the slug fix the seed
    has (a regression: never a parent). The two admitted lineages complement each other."""
    tasks, _ = engine_env
    branches = {
        "branch-1-0": ("per_page=10", {"tool_calls": [fix_call("app-pagination-page-count")]}),
        "branch-1-1": ("Back-to-back", {"tool_calls": [fix_call("algo-interval-touching")]}),
        "branch-1-2": ("several dashes in a row", {"content": "I could not find the problem."}),
    }
    path = branching_script(tmp_path, branches)
    run = tmp_path / "run"
    flags = ("--recipe", "darwinx", "--recombine", "1", "--max-expansions", "8", "--max-evals", "40", "--workers", "1")
    evolve_ok(run, tasks, path, *flags, "--seed-agent", str(quick_seed_agent(tmp_path)))
    with Archive.for_run(run) as ar:
        assert ar.run_config()["admission"] == "preserve_extend"
        nodes = ar.nodes()
        parents = {n.parent_id for n in nodes} | {n.second_parent_id for n in nodes}
    shown = {n.id: CliRunner().invoke(main, ["show", "--run", str(run), str(n.id)]).output for n in nodes}
    regressed = [
        i for i, text in shown.items() if "fails 1 task(s) its parent 1 resolved (text-slug-separators)" in text
    ]
    assert regressed
    assert not set(regressed) & parents
    recombined = [n for n in nodes if n.second_parent_id is not None]
    assert recombined
    for child in recombined:
        assert "not a parent" not in shown[child.parent_id]
        assert "not a parent" not in shown[child.second_parent_id]


def test_a_resumed_run_keeps_its_recipe(engine_env, tmp_path, bwrap):
    tasks, script = engine_env
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--recipe", "darwinx", "--max-evals", "3")
    again = evolve(run, tasks, script, "--recipe", "gea", "--max-evals", "4")
    assert again.exit_code != 0
    assert "mode" in again.output


def test_the_darwinx_recipe_with_a_teacher_records_and_meters_its_attempt(engine_env, tmp_path, bwrap):
    tasks, _ = engine_env
    path = evidence_keeping_script(tmp_path)
    run = tmp_path / "run"
    flags = ("--recipe", "darwinx", "--teacher-model", "teacher-m", "--max-expansions", "1", "--max-evals", "4")
    evolve_ok(run, tasks, path, *flags)
    with Archive.for_run(run) as ar:
        expand = ar.jobs.list(kind="expand")[0]
        teacher_calls = {(c.model, c.job_id) for c in ar.fm_calls() if c.role == "teacher"}
        child = next(n.id for n in ar.nodes() if n.parent_id == 1)
        seen = evidence_seen(ar, child, tmp_path)["teacher"]
    assert teacher_calls == {("teacher-m", expand.id)}
    assert seen["model"] == "teacher-m"


def test_a_recipe_run_seeded_from_an_export_starts_from_it(engine_env, tmp_path, bwrap):
    tasks, script = engine_env
    first = tmp_path / "first"
    evolve_ok(first, tasks, script, "--recipe", "hgm", "--max-expansions", "1", "--max-evals", "4")
    export = tmp_path / "export"
    assert CliRunner().invoke(main, ["export", "--run", str(first), "2", "--out", str(export)]).exit_code == 0
    second = tmp_path / "second"
    evolve_ok(second, tasks, script, "--recipe", "gea", "--seed-agent", str(export), "--max-evals", "3")
    with Archive.for_run(second) as ar:
        seed = ar.node(1)
        assert seed.origin["seed_agent"] == {"path": str(export.resolve())}
        ar.materialize(seed.snapshot, tmp_path / "seed")
    assert "Read the code the issue is about" in (tmp_path / "seed/seed_agent/prompts/solve_system.md").read_text()
