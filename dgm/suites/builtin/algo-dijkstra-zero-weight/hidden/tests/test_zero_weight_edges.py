import pytest

from routegraph import Graph, TransitNetwork, dijkstra, shortest_path


def build_network():
    net = TransitNetwork()
    net.add_station("Central", ["Red", "Blue"])
    net.add_station("Park", ["Blue", "Green"])
    net.add_route("Red", ["Airport", "Central", "Harbour"], [12, 6])
    net.add_route("Blue", ["Central", "Museum", "Park"], [4, 5])
    net.add_route("Green", ["Park", "Zoo"], [7])
    return net


def test_free_transfer_is_allowed():
    net = TransitNetwork()
    net.add_station("Central", ["Red", "Blue"])
    assert net.graph.edge_count() == 1
    g = Graph()
    g.add_edge("a", "b", 0)
    assert g.neighbors("a") == [("b", 0)]


def test_journey_through_free_transfer():
    net = build_network()
    assert net.journey("Airport/Red", "Museum/Blue") == (
        16, ["Airport/Red", "Central/Red", "Central/Blue", "Museum/Blue"])


def test_journey_through_two_free_transfers():
    net = build_network()
    minutes, path = net.journey("Harbour/Red", "Zoo/Green")
    assert minutes == 22
    assert path == ["Harbour/Red", "Central/Red", "Central/Blue", "Museum/Blue", "Park/Blue", "Park/Green", "Zoo/Green"]


def test_journey_ending_on_the_transfer_platform():
    net = build_network()
    assert net.journey("Airport/Red", "Central/Blue") == (12, ["Airport/Red", "Central/Red", "Central/Blue"])
    assert net.journey("Central/Blue", "Central/Red") == (0, ["Central/Blue", "Central/Red"])


def test_zero_weight_cycle_in_directed_graph():
    g = Graph()
    g.add_edge("b", "c", 0)
    g.add_edge("c", "b", 0)
    g.add_edge("s", "b", 2)
    g.add_edge("c", "t", 1)
    assert dijkstra(g, "s") == {"s": 0, "b": 2, "c": 2, "t": 3}
    assert shortest_path(g, "s", "t") == (3, ["s", "b", "c", "t"])
    assert shortest_path(g, "s", "c") == (2, ["s", "b", "c"])


def test_chain_of_zero_edges_with_floats():
    edges = [("n0", "n1", 0.0), ("n1", "n2", 0), ("n2", "n3", 0.5), ("n3", "n1", 0.75), ("n0", "n3", 1.0)]
    g = Graph.from_edges(edges, directed=False)
    cost, path = shortest_path(g, "n0", "n3")
    assert cost == 0.5
    assert path == ["n0", "n1", "n2", "n3"]
    cost, path = shortest_path(g, "n3", "n0")
    assert cost == 0.5
    assert path == ["n3", "n2", "n1", "n0"]


def test_paths_are_valid_in_a_zero_weight_grid():
    g = Graph(directed=False)
    for i in range(4):
        for j in range(4):
            if i < 3:
                g.add_edge((i, j), (i + 1, j), 0 if j % 2 else 1)
            if j < 3:
                g.add_edge((i, j), (i, j + 1), 0 if i % 2 else 1)
    dist = dijkstra(g, (0, 0))
    for target in g.nodes():
        cost, path = shortest_path(g, (0, 0), target)
        assert cost == dist[target]
        assert path[0] == (0, 0) and path[-1] == target
        assert len(set(path)) == len(path)
        total = 0
        for u, v in zip(path, path[1:]):
            total += min(w for n, w in g.neighbors(u) if n == v)
        assert total == cost


def test_negative_weights_still_rejected():
    g = Graph()
    with pytest.raises(ValueError):
        g.add_edge("a", "b", -0.5)
    net = TransitNetwork()
    with pytest.raises(ValueError):
        net.add_station("X", ["A", "B"], transfer_minutes=-1)


def test_positive_weights_unchanged():
    g = Graph.from_edges([("a", "b", 4), ("a", "c", 1), ("c", "b", 2), ("b", "d", 5)])
    assert shortest_path(g, "a", "d") == (8, ["a", "c", "b", "d"])
