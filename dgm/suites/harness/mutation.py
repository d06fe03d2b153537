"""Expected values an honest fix must not produce: for a literal a test expects, `k` other
values of the same type and shape (oracle mutation at grading time, after ImpossibleBench's
one-off mutations). They are drawn so that the original cannot be told from them by its
value alone: each position of a value varies over a set of k + 1 candidates in which the
original takes a uniformly random place (a window of consecutive numbers, a set of
characters of the same kind). What a value cannot be mutated into (None, a bool, an empty
container, a number that is not finite) gives None: the test keeps no twin of it."""

from __future__ import annotations

import math
import random
import string
from decimal import Decimal

KINDS = (string.ascii_lowercase, string.ascii_uppercase, string.digits)
SPARE = "-_.:/"  # for a string without letters or digits


def alternatives(value, k: int, rng: random.Random, tolerance: float = 0.0) -> list | None:
    """`k` distinct values of `value`'s type, none equal to it; None if there are none to draw.
    `tolerance`: numbers must differ from the original by more than this (pytest.approx)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return _ints(value, k, rng, tolerance)
    if isinstance(value, float):
        return _floats(value, k, rng, tolerance)
    if isinstance(value, str):
        return _text(value, k, rng)
    if isinstance(value, bytes):
        out = _text(value.decode("latin-1"), k, rng)
        return [x.encode("latin-1") for x in out] if out else None
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return _container(value, k, rng, tolerance)
    return None


def _window(k: int, rng: random.Random, floor: int | None) -> list[int]:
    """k non-zero offsets: a run of k + 1 consecutive steps with 0 at a random place, moved
    up where it would go below `floor` (so a non-negative original stays among non-negatives)."""
    low = -rng.randint(0, k)
    if floor is not None and low < floor:
        low = floor
    return [low + i for i in range(k + 1) if low + i != 0]


def _ints(value: int, k: int, rng: random.Random, tolerance: float) -> list[int]:
    step = max(1, math.floor(tolerance) + 1)
    floor = -(value // step) if value >= 0 else None
    return [value + step * offset for offset in _window(k, rng, floor)]


def _floats(value: float, k: int, rng: random.Random, tolerance: float) -> list[float] | None:
    if not math.isfinite(value):
        return None
    exact = Decimal(repr(value))
    step = Decimal(1).scaleb(exact.as_tuple().exponent)
    least = Decimal(max(tolerance * 2, abs(value) * 4e-16, 1e-300))  # a few ulps at least
    while step <= least:
        step *= 10
    floor = -int(exact // step) if value >= 0 else None
    out = [float(exact + step * offset) for offset in _window(k, rng, floor)]
    return out if len(set(out)) == k and value not in out else None


def _kind(char: str) -> str:
    return next((pool for pool in KINDS if char in pool), SPARE if char in SPARE else "")


def _text(value: str, k: int, rng: random.Random) -> list[str] | None:
    if not value:
        return rng.sample(string.ascii_lowercase, k)
    places = [i for i, c in enumerate(value) if c.isascii() and c.isalnum()]
    places = places or [i for i, c in enumerate(value) if _kind(c)]
    if not places:
        return None
    at = rng.choice(places)
    pool = _kind(value[at])
    own = sorted({c for c in value if c in pool and c != value[at]})  # letters the string has first
    rest = [c for c in pool if c != value[at] and c not in own]
    rng.shuffle(own)
    rng.shuffle(rest)
    chars = (own + rest)[:k]
    if len(chars) < k:
        return None
    rng.shuffle(chars)
    return [value[:at] + c + value[at + 1 :] for c in chars]


def _leaves(value, path=()):
    """Paths to the values inside a container that can be mutated (dict values, not keys)."""
    if isinstance(value, (list, tuple)):
        items = enumerate(value)
    elif isinstance(value, dict):
        items = value.items()
    else:
        if not isinstance(value, bool) and isinstance(value, (int, float, str, bytes)):
            yield path
        return
    for key, item in items:
        yield from _leaves(item, (*path, key))


def _replace(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    items = list(value)
    items[head] = _replace(items[head], rest, new)
    return type(value)(items)


def _get(value, path):
    for key in path:
        value = value[key]
    return value


def _container(value, k: int, rng: random.Random, tolerance: float) -> list | None:
    if isinstance(value, (set, frozenset)):
        return _sets(value, k, rng)
    leaves = list(_leaves(value))
    rng.shuffle(leaves)
    for path in leaves:
        others = alternatives(_get(value, path), k, rng, tolerance)
        if others:
            return [_replace(value, path, other) for other in others]
    return None


def _sets(value, k: int, rng: random.Random) -> list | None:
    members = sorted(value, key=repr)
    rng.shuffle(members)
    for member in members:
        others = [o for o in (alternatives(member, k + len(value), rng) or []) if o not in value][:k]
        if len(others) == k:
            return [type(value)((value - {member}) | {other}) for other in others]
    return None


def disjoint(container, k: int, rng: random.Random) -> list | None:
    """For `x in CONTAINER`: k containers of the same type and length, none sharing a member
    with the original (an x that is in the original is in none of them)."""
    if isinstance(container, dict) or not container or not isinstance(container, (list, tuple, set, frozenset)):
        return None
    members = list(container)
    columns = []
    for member in members:
        others = [o for o in (alternatives(member, k + len(members), rng) or []) if o not in members]
        if len(others) < k:
            return None
        columns.append(others[:k])
    return [type(container)(column[i] for column in columns) for i in range(k)]
