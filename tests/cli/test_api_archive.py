"""An archive built only through the Python API (no stored run): `status` and `report`
summarise the benchmark its evaluations are on; the report's progress curve is the run's
final rule's value for the agent that rule picks after each evaluation."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from dgm.engine import final
from dgm.engine.view import build
from dgm.inspect.pages import progress_series

LABEL = "swe-verified:third-party"


def api_archive(tmp_path):
    """A 12-node tree with 60 evaluations on LABEL and 3 transfer results, as a script
    importing a published run would make it; one node invalid."""
    folder = tmp_path / "agent"
    folder.mkdir()
    (folder / "agent.py").write_text("print('hi')\n")
    rng = random.Random(3)
    with Archive.for_run(tmp_path / "run", create=True) as ar:
        ids = [ar.add_child(None, folder, status="valid").id]
        for i in range(11):
            ids.append(ar.add_child(rng.choice(ids), folder, status="invalid" if i == 4 else "valid").id)
        for k in range(60):
            ar.add_evaluation(ids[k % 12], LABEL, f"task-{k // 12}", rng.random() < 0.4 + 0.04 * (k % 12))
        for t in range(3):
            ar.add_evaluation(ids[3], "polyglot@gpt", f"p{t}", True)
    return tmp_path / "run"


def test_status_of_an_api_built_archive_uses_its_own_benchmark(tmp_path):
    run = api_archive(tmp_path)
    result = CliRunner().invoke(main, ["status", "--run", str(run), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["benchmark"] == LABEL
    assert data["evaluations"] == 60
    with Archive.for_run(run) as ar:
        view = build(ar, LABEL, ())
    assert data["best"]["node"] == final.best(view, "quantile")  # the default rule, on its own results
    text = CliRunner().invoke(main, ["status", "--run", str(run)]).output
    assert LABEL in text
    assert "none yet" not in text
    assert "builtin:dev" not in text
    assert "no run stored" in text
    assert "mode hgm" not in text


def test_best_and_tree_of_an_api_built_archive_read_its_benchmark_not_a_transfer(tmp_path):
    run = api_archive(tmp_path)
    with Archive.for_run(run) as ar:
        expected = final.best(build(ar, LABEL, ()), "quantile")
    result = CliRunner().invoke(main, ["best", "--run", str(run)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"node {expected}: ")
    assert f"on {LABEL}" in result.output
    tree = CliRunner().invoke(main, ["tree", "--run", str(run)])
    assert tree.exit_code == 0
    assert "polyglot@gpt" not in tree.output.splitlines()[0]


def test_status_of_an_empty_archive_is_a_clear_error(tmp_path):
    with Archive.for_run(tmp_path / "empty", create=True):
        pass
    result = CliRunner().invoke(main, ["status", "--run", str(tmp_path / "empty")])
    assert result.exit_code != 0
    assert "holds no evolution run" in result.output


def test_report_of_an_api_built_archive(tmp_path):
    run = api_archive(tmp_path)
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", "--run", str(run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text()
    with Archive.for_run(run) as ar:
        (resolved,) = ar.db.execute("SELECT sum(resolved) FROM evaluations WHERE benchmark = ?", [LABEL]).fetchone()
    assert f"benchmark    {LABEL}" in page
    assert f"evaluations  60 ({resolved} resolved)" in page
    assert "builtin:dev" not in page
    assert "none yet" not in page
    assert "Final pick on" in page
    assert final.RULE_NAMES["quantile"] in page


def test_progress_curve_is_the_final_rules_value_of_its_pick_after_each_evaluation(tmp_path):
    """Brute force: after every evaluation, final.best over the evaluations so far (valid
    agents only) and its value under the rule; no jump to 1.0 when an agent has 1/1."""
    run = api_archive(tmp_path)
    with Archive.for_run(run) as ar:
        rows = ar.db.execute("SELECT id FROM evaluations WHERE benchmark = ? ORDER BY id", [LABEL]).fetchall()
        for rule in final.RULES:
            points, band = progress_series(ar, LABEL, rule)
            assert len(points) == len(rows) == len(band)
            for (spent, value), (_, lo, hi), (last_id,) in zip(points, band, rows, strict=True):
                prefix = ar.db.execute(
                    "SELECT node_id, resolved FROM evaluations WHERE benchmark = ? AND id <= ?", [LABEL, last_id]
                ).fetchall()
                counts: dict[int, list[int]] = {}
                for node, resolved in prefix:
                    counts.setdefault(node, [0, 0])[resolved] += 1
                valid = {n.id for n in ar.nodes() if n.status == "valid"}
                scored = {
                    node: final.RULES[rule](_stats(node, s, f)) for node, (f, s) in counts.items() if node in valid
                }
                best = max(scored, key=lambda node: (scored[node], sum(counts[node]), -node))
                assert value == scored[best], (rule, spent)
                assert lo <= (counts[best][1] / sum(counts[best])) <= hi
            if rule == "quantile":  # a 1/1 agent is worth its posterior's 10% quantile, not 1.0
                assert max(v for _, v in points) < 0.9


def _stats(node, s, f):
    from dgm.engine.view import NodeStats

    return NodeStats(node, None, "valid", 0, s, f, 0, 0, 0, frozenset())


def test_every_final_rule_has_a_name_for_pages():
    assert set(final.RULE_NAMES) == set(final.RULES)
