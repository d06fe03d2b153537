import pytest

from depgraph import CycleError, DependencyGraph, batches, plan, static_order


def migrations_with_cycle():
    return DependencyGraph.from_mapping({
        "0001_init": [],
        "0002_users": ["0001_init", "0004_profiles"],
        "0003_orders": ["0002_users"],
        "0004_profiles": ["0003_orders"],
        "0005_reports": ["0003_orders"],
        "0006_indexes": ["0001_init"],
    })


def test_static_order_raises_on_cycle():
    with pytest.raises(CycleError) as info:
        static_order(migrations_with_cycle())
    assert info.value.nodes == ["0002_users", "0003_orders", "0004_profiles", "0005_reports"]


def test_batches_raises_on_cycle():
    with pytest.raises(CycleError) as info:
        batches(migrations_with_cycle())
    assert info.value.nodes == ["0002_users", "0003_orders", "0004_profiles", "0005_reports"]


def test_two_node_cycle():
    graph = DependencyGraph.from_mapping({"a": ["b"], "b": ["a"], "c": []})
    for func in (static_order, batches):
        with pytest.raises(CycleError) as info:
            func(graph)
        assert info.value.nodes == ["a", "b"]


def test_self_dependency_is_a_cycle():
    graph = DependencyGraph()
    graph.add("x", "x")
    graph.add("y")
    for func in (static_order, batches):
        with pytest.raises(CycleError) as info:
            func(graph)
        assert info.value.nodes == ["x"]


def test_cycle_error_is_a_value_error_with_message():
    graph = DependencyGraph.from_mapping({"a": ["b"], "b": ["a"]})
    with pytest.raises(ValueError, match="a, b"):
        static_order(graph)


def test_plan_through_a_cycle_raises():
    with pytest.raises(CycleError) as info:
        plan(migrations_with_cycle(), ["0005_reports"])
    assert info.value.nodes == ["0002_users", "0003_orders", "0004_profiles", "0005_reports"]


def test_plan_away_from_the_cycle_still_works():
    assert plan(migrations_with_cycle(), ["0006_indexes"]) == ["0001_init", "0006_indexes"]


def test_acyclic_graphs_unaffected():
    graph = DependencyGraph.from_mapping({"d": ["b", "c"], "b": ["a"], "c": ["a"]})
    assert static_order(graph) == ["a", "b", "c", "d"]
    assert batches(graph) == [["a"], ["b", "c"], ["d"]]
