"""Run configuration: defaults < dgm.toml < flags; a resumed run keeps its search."""

from __future__ import annotations

import pytest

from dgm.engine.config import ConfigError, RunConfig, load_file, resolve


def test_file_then_flags(tmp_path):
    path = tmp_path / "dgm.toml"
    path.write_text('[evolve]\nmode = "dgm"\nworkers = 3\nstages = [5, 10]\n')
    config = resolve(load_file(path), {"workers": 1, "seed": None})
    assert (config.mode, config.workers, config.stages, config.seed) == ("dgm", 1, (5, 10), 0)
    assert config.selector_name == "score_child_prop"
    assert RunConfig().selector_name == "cmp_thompson"


def test_bad_values_and_keys_are_named(tmp_path):
    with pytest.raises(ConfigError, match="mode = 'greedy'"):
        resolve({}, {"mode": "greedy"})
    path = tmp_path / "dgm.toml"
    path.write_text("wrokers = 3\n")
    with pytest.raises(ConfigError, match=r"unknown key.*wrokers"):
        load_file(path)
    path.write_text("workers = [\n")
    with pytest.raises(ConfigError, match="cannot read config file"):
        load_file(path)


def test_resume_keeps_the_search_but_takes_new_limits():
    stored = RunConfig(seed=3, mode="dgm").to_dict()
    resumed = resolve({}, {"max_evals": 500, "workers": 4}, stored)
    assert (resumed.seed, resumed.mode, resumed.max_evals, resumed.workers) == (3, "dgm", 500, 4)
    with pytest.raises(ConfigError, match="other seed"):
        resolve({}, {"seed": 4}, stored)


def test_prices_merge_model_by_model_defaults_file_flags(tmp_path):
    path = tmp_path / "dgm.toml"
    path.write_text('[evolve]\nbudget_usd = 5\n\n[prices]\n"house-model" = [1, 2]\n"gpt-4o-mini" = [0.1, 0.2]\n')
    config = resolve(load_file(path), {"prices": {"gpt-4o-mini": (0.3, 0.4)}, "max_call_tokens": 2048})
    assert config.prices == {"house-model": (1, 2), "gpt-4o-mini": (0.3, 0.4)}
    assert (config.budget_usd, config.max_call_tokens, config.job_concurrency) == (5, 2048, 4)
    resumed = resolve({}, {"prices": {"other": (1.0, 1.0)}}, config.to_dict())
    assert resumed.prices == {"house-model": (1, 2), "gpt-4o-mini": (0.3, 0.4), "other": (1.0, 1.0)}
    assert RunConfig().prices == {}


@pytest.mark.parametrize("bad", ['"m" = [1]', '"m" = [-1, 2]', '"m" = ["a", 2]', '"m" = 3'])
def test_a_bad_price_is_named(tmp_path, bad):
    path = tmp_path / "dgm.toml"
    path.write_text(f"[prices]\n{bad}\n")
    with pytest.raises(ConfigError, match=r"prices\.m = .* is not valid; expected \[IN, OUT\]"):
        resolve(load_file(path), {})


def test_gateway_limits_are_checked():
    with pytest.raises(ConfigError, match="job_concurrency = 0 is not valid"):
        resolve({}, {"job_concurrency": 0})
    with pytest.raises(ConfigError, match="max_call_tokens = 0 is not valid"):
        resolve({}, {"max_call_tokens": 0})


def test_models_per_role_merge_role_by_role_and_fall_back_to_the_model(tmp_path):
    path = tmp_path / "dgm.toml"
    path.write_text('[evolve]\nmodel = "base"\n\n[models]\nsolve = "small"\ndiagnose = "strong"\n')
    config = resolve(load_file(path), {"models": {"diagnose": "stronger"}})
    assert config.models == {"solve": "small", "diagnose": "stronger"}
    assert [config.model_for(r) for r in ("solve", "improve", "diagnose")] == ["small", "base", "stronger"]
    assert RunConfig().model_for("solve") is None  # the upstream's first


def test_a_model_for_an_unknown_role_is_named(tmp_path):
    path = tmp_path / "dgm.toml"
    path.write_text('[models]\ncritic = "m"\n')
    with pytest.raises(
        ConfigError, match=r"models.critic is not a role; the roles are solve, improve, diagnose, judge"
    ):
        resolve(load_file(path), {})
