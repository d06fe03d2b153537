"""Predictions written by `dgm.suites.predictions.write` are read back by the official
swebench loader (`get_predictions_from_file`, offline: a .jsonl path never reaches a dataset)."""

from __future__ import annotations

from dgm.suites import predictions

from .official_swebench import predictions_loader

PATCHES = [
    ("astropy__astropy-12907", "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 'é\\n'\n"),
    ("django__django-11099", 'diff --git a/b.py b/b.py\n--- a/b.py\n+++ b/b.py\n@@ -1 +1 @@\n-\tpass\n+\treturn "ok"'),
    ("sympy__sympy-20590", ""),
]


def test_official_loader_reads_back_every_instance_id_and_patch(tmp_path):
    path = tmp_path / "preds.jsonl"
    assert predictions.write(path, "dgm/agent-7", PATCHES) == len(PATCHES)
    loaded = predictions_loader()(str(path), "SWE-bench/SWE-bench_Verified", "test")
    assert [(p["instance_id"], p["model_patch"]) for p in loaded] == PATCHES


def test_official_harness_finds_the_model_name_it_files_logs_under(tmp_path):
    path = tmp_path / "preds.jsonl"
    predictions.write(path, "dgm/agent-7", PATCHES[:1])
    (loaded,) = predictions_loader()(str(path), "SWE-bench/SWE-bench_Verified", "test")
    # run_evaluation.py keys logs by model_name_or_path and applies model_patch (str or None)
    assert loaded["model_name_or_path"] == "dgm/agent-7"
    assert set(loaded) == {"instance_id", "model_name_or_path", "model_patch"}
