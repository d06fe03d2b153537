import pytest

from routegraph import Graph, NoPathError, TransitNetwork, dijkstra, shortest_path


def test_dijkstra_distances():
    g = Graph.from_edges([("a", "b", 4), ("a", "c", 1), ("c", "b", 2), ("b", "d", 5)])
    assert dijkstra(g, "a") == {"a": 0, "b": 3, "c": 1, "d": 8}


def test_shortest_path():
    g = Graph.from_edges([("a", "b", 4), ("a", "c", 1), ("c", "b", 2), ("b", "d", 5)])
    assert shortest_path(g, "a", "d") == (8, ["a", "c", "b", "d"])
    assert shortest_path(g, "a", "a") == (0, ["a"])


def test_unreachable_and_unknown():
    g = Graph.from_edges([("a", "b", 1)])
    g.add_node("z")
    with pytest.raises(NoPathError):
        shortest_path(g, "a", "z")
    with pytest.raises(KeyError):
        shortest_path(g, "a", "nope")


def test_undirected_edges():
    g = Graph.from_edges([("x", "y", 2), ("y", "z", 3)], directed=False)
    assert shortest_path(g, "z", "x") == (5, ["z", "y", "x"])
    assert g.edge_count() == 2


def test_negative_weight_rejected():
    g = Graph()
    with pytest.raises(ValueError):
        g.add_edge("a", "b", -1)


def test_transit_with_timed_transfer():
    net = TransitNetwork()
    net.add_station("Central", ["Red", "Blue"], transfer_minutes=3)
    net.add_route("Red", ["Airport", "Central", "Harbour"], [12, 6])
    net.add_route("Blue", ["Central", "Museum"], [4])
    assert net.journey("Airport/Red", "Museum/Blue") == (19, ["Airport/Red", "Central/Red", "Central/Blue", "Museum/Blue"])
    with pytest.raises(ValueError):
        net.add_route("Blue", ["Museum", "Park"], [1, 2])
