import pytest

from depgraph import DependencyGraph, batches, plan, static_order

BUILD = {
    "app": ["lib", "config"],
    "lib": ["utils"],
    "tests": ["app"],
    "docs": ["lib"],
}


def test_static_order_respects_dependencies():
    graph = DependencyGraph.from_mapping(BUILD)
    assert static_order(graph) == ["config", "utils", "lib", "app", "docs", "tests"]


def test_batches():
    graph = DependencyGraph.from_mapping(BUILD)
    assert batches(graph) == [["config", "utils"], ["lib"], ["app", "docs"], ["tests"]]


def test_undeclared_dependencies_become_nodes():
    graph = DependencyGraph()
    graph.add("b", "a")
    assert "a" in graph and len(graph) == 2
    assert graph.dependencies_of("a") == set()
    assert graph.dependents_of("a") == {"b"}


def test_plan_only_includes_requirements():
    graph = DependencyGraph.from_mapping(BUILD)
    assert plan(graph, ["docs"]) == ["utils", "lib", "docs"]
    with pytest.raises(KeyError):
        plan(graph, ["nope"])


def test_empty_graph():
    graph = DependencyGraph()
    assert static_order(graph) == []
    assert batches(graph) == []
