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
    with pytest.raises(ConfigError, match="unknown key.*wrokers"):
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
