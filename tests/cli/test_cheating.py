"""The cheating rate (dgm/engine/cheating.py): the share of each agent's gradings, and the
run's, judged tampered or gamed, with its denominator, the same in status, show, report,
tree and serve; an agent whose rate is higher than its parent's is marked."""

from __future__ import annotations

import json

from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from dgm.engine.cheating import CheatRate, cheating_rates
from dgm.inspect.watch import Watch
from tests.helpers import write_tree

LABEL = "builtin:dev"
HOSTILE = "<script>window.__pwned = 1</script>"


def cheating_archive(tmp_path):
    """Node 1 (the seed): 4 gradings and a transfer one, none caught. Node 2 (of 1): 1/3,
    tampered. Node 3 (of 2): 2/4, its t1 both tampered and gamed (counted once), t2 gamed.
    Node 4 (of 2): 1/3 through an event without a label (as old runs logged them), the same
    rate as its parent. Node 5 (of 1): never graded. An event naming a task the node was
    never graded on counts for nothing."""
    run = tmp_path / "run"
    with Archive.for_run(run, create=True) as ar:

        def agent(parent, n):
            node = ar.add_child(parent, write_tree(tmp_path / f"a{n}", {"seed_agent/a.py": f"x = {n}\n"}))
            ar.set_status(node.id, "valid")
            return node.id

        seed = agent(None, 1)
        two = agent(seed, 2)
        three, four, five = agent(two, 3), agent(two, 4), agent(seed, 5)
        results = {seed: [1, 1, 1, 0], two: [1, 0, 0], three: [1, 1, 0, 0], four: [0, 1, 0]}
        for node, resolved in results.items():
            for i, r in enumerate(resolved):
                ar.add_evaluation(node, LABEL, f"t{i + 1}", bool(r))
        ar.add_evaluation(seed, "polyglot@gpt", "p1", True)
        caught = [
            ("grading_tampered", two, {"label": LABEL, "task": "t2", "tamper": ["conftest.py"]}),
            ("grading_tampered", three, {"label": LABEL, "task": "t1", "tamper": [HOSTILE]}),
            ("grading_gamed", three, {"label": LABEL, "task": "t1", "gamed": ["twin t1-twin passed"]}),
            ("grading_gamed", three, {"label": LABEL, "task": "t2", "gamed": [f"twin {HOSTILE} passed"]}),
            ("grading_gamed", two, {"label": LABEL, "task": "t9", "gamed": ["never graded"]}),
            ("grading_tampered", four, {"task": "t3", "tamper": ["results forged"]}),
            ("grading_flagged", seed, {"label": LABEL, "task": "t1", "flags": ["read a test's frame"]}),
        ]
        for kind, node, data in caught:
            ar.log_event(kind, node_id=node, data=data)
        assert five == 5
    return run


def test_each_grading_counts_once_and_a_rate_above_the_parents_is_marked(tmp_path):
    with Archive.for_run(cheating_archive(tmp_path), read_only=True) as ar:
        rates = cheating_rates(ar)
    assert rates.run == CheatRate(None, 4, 15)
    assert dict(rates.nodes) == {
        1: CheatRate(1, 0, 5),
        2: CheatRate(2, 1, 3, parent_id=1, rising=True),
        3: CheatRate(3, 2, 4, parent_id=2, rising=True),
        4: CheatRate(4, 1, 3, parent_id=2),  # the same rate as its parent: not a rise
        5: CheatRate(5, 0, 0, parent_id=1),
    }
    assert [r.node_id for r in rates.cheaters()] == [3, 2, 4]
    assert [r.text() for r in (rates.run, rates.of(5), CheatRate(9, 1, 300))] == [
        "cheating 4/15 gradings (27%)",
        "cheating 0/0 gradings (none graded)",
        "cheating 1/300 gradings (<1%)",
    ]


def test_status_gives_the_runs_rate_and_each_cheaters_with_denominators(tmp_path):
    run = cheating_archive(tmp_path)
    result = CliRunner().invoke(main, ["status", "--run", str(run)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert (
        "integrity    cheating 4/15 gradings (27%) judged tampered or gamed, on every benchmark (transfers too)"
        in lines
    )
    assert (
        "cheaters     node 3: cheating 2/4 gradings (50%) ▲ higher than its parent's; "
        "node 2: cheating 1/3 gradings (33%) ▲ higher than its parent's; node 4: cheating 1/3 gradings (33%)"
    ) in lines
    best = next(line for line in lines if line.startswith("best agent"))
    assert best.startswith("best agent   node 1: 3/4 resolved")
    assert best.endswith(", cheating 0/5 gradings (0%)")
    assert any("3 grading runs gamed" in line and "1 flagged by the grader" in line for line in lines)
    data = json.loads(CliRunner().invoke(main, ["status", "--run", str(run), "--json"]).output)
    assert data["cheating"] == {
        "node": None,
        "cheated": 4,
        "gradings": 15,
        "rising": False,
        "text": "cheating 4/15 gradings (27%)",
    }
    assert [(c["node"], c["cheated"], c["gradings"], c["rising"]) for c in data["cheaters"]] == [
        (3, 2, 4, True),
        (2, 1, 3, True),
        (4, 1, 3, False),
    ]
    assert (data["gamed"], data["tampered"], data["grading_flags"]) == (3, 3, 1)


def test_show_gives_the_agents_rate_beside_its_parents(tmp_path):
    run = cheating_archive(tmp_path)

    def integrity(node: str) -> str:
        result = CliRunner().invoke(main, ["show", "--run", str(run), node])
        assert result.exit_code == 0, result.output
        return next(line for line in result.output.splitlines() if line.startswith("integrity"))

    assert integrity("3") == (
        "integrity    cheating 2/4 gradings (50%); its parent's: cheating 1/3 gradings (33%) ▲ higher than its parent's"
    )
    assert integrity("4") == "integrity    cheating 1/3 gradings (33%); its parent's: cheating 1/3 gradings (33%)"
    assert integrity("1") == "integrity    cheating 0/5 gradings (0%)"
    assert integrity("5") == "integrity    no gradings yet"


def test_the_tree_tags_cheaters_and_marks_a_rising_rate(tmp_path):
    result = CliRunner().invoke(main, ["tree", "--run", str(cheating_archive(tmp_path))])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "1  3/4 [0.30-0.95] *",
        "├── 2  1/3 [0.06-0.79]  cheat 1/3 ▲",
        "│   ├── 3  2/4 [0.15-0.85]  cheat 2/4 ▲",
        "│   └── 4  1/3 [0.06-0.79]  cheat 1/3",
        "└── 5  -",
        "(score on builtin:dev: resolved/n [95% interval]; (+ N) second parent; * best agent)",
        "(cheat C/N: C of its N gradings judged tampered or gamed; ▲ a higher rate than its parent's; "
        "run: cheating 4/15 gradings (27%))",
    ]
    dot = CliRunner().invoke(main, ["tree", "--run", str(cheating_archive(tmp_path / "again")), "--format", "dot"])
    assert '"3\\n2/4 [0.15-0.85]\\ncheat 2/4 ▲", fillcolor' in dot.output
    assert 'n5 [label="5\\n-", fillcolor="#cccccc"];' in dot.output  # never graded: no tag, no outline


def test_the_report_has_the_rates_and_escapes_what_agents_wrote(tmp_path):
    run, out = cheating_archive(tmp_path), tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", "--run", str(run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "integrity    cheating 4/15 gradings (27%) judged tampered or gamed" in page
    assert "<p>Run: cheating 4/15 gradings (27%) judged tampered or gamed.</p>" in page
    assert (
        "<tr><td>3</td><td>2</td><td>cheating 2/4 gradings (50%)</td><td>cheating 1/3 gradings (33%)</td>"
        "<td>▲</td></tr>"
    ) in page
    assert (
        "<tr><td>4</td><td>2</td><td>cheating 1/3 gradings (33%)</td><td>cheating 1/3 gradings (33%)</td><td></td>"
        in page
    )
    assert page.count('<rect class="cheat"') == 3  # the tree: an outline on nodes 2, 3 and 4
    assert "grading run gamed: a twin test passed (never resolved)" in page
    assert HOSTILE not in page
    assert "twin &lt;script&gt;window.__pwned = 1&lt;/script&gt; passed" in page


def test_serve_sends_the_rates_for_the_run_the_agent_and_the_tree(tmp_path):
    watch = Watch(cheating_archive(tmp_path))
    try:
        overview, tree, node = watch.overview(), watch.tree(), watch.node(3)
    finally:
        watch.close()
    assert any(line.startswith("integrity    cheating 4/15 gradings (27%)") for line in overview["lines"])
    assert node["cheating"] == {
        "node": 3,
        "cheated": 2,
        "gradings": 4,
        "rising": True,
        "text": "cheating 2/4 gradings (50%)",
        "parent": "cheating 1/3 gradings (33%)",
    }
    assert [f["kind"] for f in node["flags"]] == ["grading_tampered", "grading_gamed", "grading_gamed"]
    fields = tree["fields"]
    rows = {row[0]: dict(zip(fields, row, strict=True)) for row in tree["nodes"]}
    assert [(rows[i]["cheated"], rows[i]["gradings"], rows[i]["rising"]) for i in range(1, 6)] == [
        (0, 5, False),
        (1, 3, True),
        (2, 4, True),
        (1, 3, False),
        (0, 0, False),
    ]
    assert rows[1]["flags"] == ["flagged"]
    assert rows[3]["flags"] == ["gamed", "tampered"]


def test_the_served_page_shows_the_rate_and_rings_the_cheaters(browser, tmp_path):
    from tests.cli.test_serve import shown_nodes, start_serve

    server, url = start_serve(cheating_archive(tmp_path))
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(url + "#node=3")
        assert shown_nodes(page, at_least=5, timeout=30) == 5
        page.wait_for_selector('#panel[data-shown="#node=3"]')
        assert (
            "cheating 2/4 gradings (50%); its parent's: cheating 1/3 gradings (33%) ▲ higher than its parent's"
            in page.inner_text("#panel")
        )
        assert "integrity    cheating 4/15 gradings (27%)" in page.inner_text("#overview")
        assert page.locator("circle.cheat").count() == 3
        assert page.locator("circle.cheat.rising").count() == 2
        page.check('input.flag[value="rising"]')
        hits = [i for i in range(1, 6) if "hit" in page.get_attribute(f'circle.node[data-id="{i}"]', "class")]
        assert hits == [2, 3]
        page.goto(url + "#node=4")
        page.wait_for_selector('#panel[data-shown="#node=4"]')
        text = page.inner_text("#panel")
        assert "cheating 1/3 gradings (33%); its parent's: cheating 1/3 gradings (33%)" in text
        assert "▲" not in text
        assert page.evaluate("window.__pwned") is None
    finally:
        server.terminate()
        server.wait(timeout=10)
