"""The phantom-failure guard: a meta agent's diagnosis cites what it rests on, and the engine
checks every citation against the archive (dgm/engine/citations.py)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from dgm.engine import citations
from tests.engine.conftest import DIAGNOSIS, SCRIPT, evolve_ok

PAGE_TEST = "tests/test_partial_last_page.py::test_partial_last_page_is_counted"
PHANTOM_PASSED = [{"task_id": "text-slug-separators", "claim": "failed"}]  # the seed resolves it
PHANTOM_TEST = [{"task_id": "app-pagination-page-count", "claim": "failed", "test": "tests/test_pages.py::test_nope"}]
HONEST = [{"task_id": "app-pagination-page-count", "claim": "failed", "test": PAGE_TEST}]


def archive_with_results(tmp_path) -> Archive:
    """Node 1 resolved task-a; failed task-b (test_x failed, test_y passed, a log line); one
    child, node 2, never evaluated."""
    archive = Archive(tmp_path / "archive.db")
    code = tmp_path / "code"
    code.mkdir()
    (code / "agent.py").write_text("x = 1\n")
    root = archive.add_child(None, code, status="valid", origin={})
    archive.add_child(root.id, code, status="valid", origin={})
    archive.add_evaluation(root.id, "b", "task-a", True, tests={"tests/test_a.py::test_a": "PASSED"})
    bundle = json.dumps({"test_log": "E   AssertionError: expected 3, got 2\n", "trajectory": "I ran it."})
    tests = {"tests/test_b.py::test_x": "FAILED", "tests/test_b.py::test_y": "PASSED"}
    archive.add_evaluation(root.id, "b", "task-b", False, tests=tests, log=bundle.encode())
    return archive


def checked(archive: Archive, raw: list, parent: int = 1, allowed: set[int] | None = None) -> list:
    return [(c.confirmed, c.why) for c in citations.check(archive, parent, citations.parse(raw), allowed)]


def test_each_kind_of_false_citation_is_refuted_and_true_ones_are_confirmed(tmp_path):
    archive = archive_with_results(tmp_path)
    refuted = {
        "a failure of a task that was resolved": {"task_id": "task-a", "claim": "failed"},
        "a success that never happened": {"task_id": "task-b", "claim": "resolved"},
        "a task never evaluated": {"task_id": "task-c", "claim": "failed"},
        "a test that does not exist": {"task_id": "task-b", "claim": "failed", "test": "test_nope"},
        "a failing test that passed": {"task_id": "task-b", "claim": "failed", "test": "test_y"},
        "a log line never printed": {"task_id": "task-b", "claim": "failed", "log": "KeyError: 'user'"},
        "another agent's results it was not given": {"task_id": "task-b", "claim": "failed", "node": 2},
    }
    for what, raw in refuted.items():
        [(confirmed, why)] = checked(archive, [raw])
        assert not confirmed, what
        assert why != "matches the archive", what
    honest = [
        {"task_id": "task-b", "claim": "failed", "test": "tests/test_b.py::test_x"},
        {"task_id": "task-b", "claim": "failure", "test": "test_b.py::test_x", "log": "AssertionError:  expected 3"},
        {"task_id": "task-a", "claim": "passed", "test": "test_a"},
        {"task_id": "task-b", "log": "I ran it."},
    ]
    assert [ok for ok, _ in checked(archive, honest)] == [True] * len(honest)
    assert checked(archive, [{"task_id": "task-b", "claim": "failed"}], parent=2, allowed={1}) == [
        (False, "agent 2 was never evaluated on task-b")
    ]


def test_a_phantom_hidden_past_the_cap_behind_true_citations_is_refuted(tmp_path):
    archive = archive_with_results(tmp_path)
    true = {"task_id": "task-b", "claim": "failed", "test": "tests/test_b.py::test_x"}
    raw = [true] * citations.MAX_CITATIONS + [{"task_id": "task-a", "claim": "failed"}]
    checked = citations.check(archive, 1, citations.parse(raw), beyond_cap=citations.unchecked(raw))
    assert [c.confirmed for c in checked] == [True] * citations.MAX_CITATIONS + [False]
    assert "1 citation(s) past the first 20 were not checked" in citations.summary(checked)
    assert citations.unchecked(raw[:20]) == citations.unchecked("x") == 0


def test_citations_are_agent_written_input_parsed_leniently_and_bounded():
    raw = [
        "not an object",
        {"claim": "failed"},  # no task
        {"task_id": "t\x1b[31m" + "x" * 5000, "claim": "FAILED", "node": True},
        *[{"task_id": f"t{i}"} for i in range(100)],
    ]
    parsed = citations.parse(raw)
    assert len(parsed) == citations.MAX_CITATIONS - 2
    first = parsed[0]
    assert first.task_id.startswith("t [31m")
    assert len(first.task_id) == citations.MAX_FIELD
    assert (first.claim, first.node) == ("failed", None)
    assert citations.parse({"task_id": "t"}) == citations.parse("x") == citations.parse(None) == []


def diagnosing(tmp_path, cited: list[list[dict]]):
    """SCRIPT whose meta agents' diagnoses cite `cited[0]`, `cited[1]`, ... in turn."""
    script = json.loads(json.dumps(SCRIPT))
    rules = [
        {
            "when": {"contains": "Answer with ONE JSON object"},
            "reply": {"content": json.dumps({**DIAGNOSIS, "citations": c})},
            "times": 1,
        }
        for c in cited
    ]
    script["rules"][0:1] = rules
    path = tmp_path / "citing-script.json"
    path.write_text(json.dumps(script))
    return path


def children_by_citation(run) -> dict[str, tuple]:
    with Archive.for_run(run) as ar:
        phantom = {e.node_id for e in ar.events("diagnosis_phantom")}
        out = {}
        for node in ar.nodes():
            if node.parent_id is None:
                continue
            cited = node.origin["citations"]
            key = cited[0].get("test") or cited[0]["task_id"]
            out[key] = (node.status, node.id in phantom, [c["confirmed"] for c in cited], node.reason, node.id)
    return out


def test_a_run_flags_phantom_diagnoses_and_not_an_honest_one(engine_env, tmp_path, bwrap):
    tasks, _ = engine_env
    script = diagnosing(tmp_path, [PHANTOM_PASSED, PHANTOM_TEST, HONEST])
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--mode", "dgm", "--children", "3", "--max-expansions", "3", "--max-evals", "12")
    found = children_by_citation(run)
    assert found["text-slug-separators"][:3] == ("valid", True, [False])
    assert found["tests/test_pages.py::test_nope"][:3] == ("valid", True, [False])
    assert found[PAGE_TEST][:3] == ("valid", False, [True])
    phantom_child = found["text-slug-separators"][4]
    shown = CliRunner().invoke(main, ["show", "--run", str(run), str(phantom_child)])
    assert shown.exit_code == 0, shown.output
    assert "[REFUTED] text-slug-separators failed: agent 1 resolved text-slug-separators" in shown.output
    assert "PHANTOM diagnosis: 1 citation(s) refuted by the archive" in shown.output
    honest = CliRunner().invoke(main, ["show", "--run", str(run), str(found[PAGE_TEST][4])]).output
    assert f"[confirmed] app-pagination-page-count failed test '{PAGE_TEST}'" in honest
    assert "PHANTOM" not in honest
    page = CliRunner().invoke(main, ["report", "--run", str(run), "--out", str(tmp_path / "report.html")])
    assert page.exit_code == 0, page.output
    assert "phantom diagnosis: what the archive says" in (tmp_path / "report.html").read_text()


def test_under_reject_a_phantom_child_is_invalid_with_the_refuted_citation(engine_env, tmp_path, bwrap):
    tasks, _ = engine_env
    script = diagnosing(tmp_path, [PHANTOM_PASSED, HONEST])
    run = tmp_path / "run"
    evolve_ok(
        run,
        tasks,
        script,
        "--mode",
        "dgm",
        "--children",
        "2",
        "--max-expansions",
        "2",
        "--max-evals",
        "6",
        "--phantom",
        "reject",
    )
    found = children_by_citation(run)
    status, flagged, _, reason, _ = found["text-slug-separators"]
    assert (status, flagged) == ("invalid", True)
    assert "phantom diagnosis: it cites text-slug-separators: agent 1 resolved text-slug-separators" in reason
    assert found[PAGE_TEST][:2] == ("valid", False)
