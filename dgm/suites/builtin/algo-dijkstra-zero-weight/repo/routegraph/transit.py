"""A transit network: stations, lines and platform transfers."""

from itertools import combinations
from typing import Iterable, List, Tuple

from .graph import Graph
from .paths import shortest_path


def platform(station: str, line: str) -> str:
    return f"{station}/{line}"


class TransitNetwork:
    """Stations have one platform per line; travel time is in minutes."""

    def __init__(self) -> None:
        self.graph = Graph(directed=False)

    def add_station(self, name: str, lines: Iterable[str], transfer_minutes: float = 0) -> None:
        """Declare a station served by `lines`.

        Changing between two of its platforms takes `transfer_minutes`
        (by default transfers are free: the platforms are cross-platform).
        """
        platforms = [platform(name, line) for line in lines]
        for p in platforms:
            self.graph.add_node(p)
        for a, b in combinations(platforms, 2):
            self.graph.add_edge(a, b, transfer_minutes)

    def add_route(self, line: str, stations: List[str], minutes: List[float]) -> None:
        """Connect consecutive `stations` on `line`; minutes[i] is the time
        between stations[i] and stations[i + 1]."""
        if len(minutes) != len(stations) - 1:
            raise ValueError("need one travel time per pair of consecutive stations")
        for (a, b), m in zip(zip(stations, stations[1:]), minutes):
            self.graph.add_edge(platform(a, line), platform(b, line), m)

    def journey(self, origin: str, destination: str) -> Tuple[float, List[str]]:
        """Fastest (minutes, [platforms...]) between two platforms."""
        return shortest_path(self.graph, origin, destination)
