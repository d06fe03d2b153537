"""A pytest plugin that registers a dummy isolating sandbox backend (it runs nothing): what a
third-party backend package would do. Used to show that one registry entry is enough for
the attack suite and the doctor to take a backend in."""

from __future__ import annotations

from sandbox import Availability, register


@register
class DummyBackend:
    name = "dummy"
    isolating = True

    def availability(self) -> Availability:
        return Availability(False, "the dummy backend runs nothing")

    def start(self, spec):
        raise NotImplementedError("the dummy backend runs nothing")

    def close_all(self) -> int:
        return 0
