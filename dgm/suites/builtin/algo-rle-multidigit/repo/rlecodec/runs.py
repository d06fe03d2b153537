"""Generic run detection over any iterable."""

from typing import Any, Iterable, List, Tuple


def runs(values: Iterable[Any]) -> List[Tuple[Any, int]]:
    """Collapse consecutive equal values into (value, count) pairs.

    >>> runs("aaabcc")
    [('a', 3), ('b', 1), ('c', 2)]
    """
    result: List[Tuple[Any, int]] = []
    for value in values:
        if result and result[-1][0] == value:
            result[-1] = (value, result[-1][1] + 1)
        else:
            result.append((value, 1))
    return result


def expand(pairs: Iterable[Tuple[Any, int]]) -> List[Any]:
    """Inverse of runs(): repeat each value `count` times."""
    out: List[Any] = []
    for value, count in pairs:
        if count < 0:
            raise ValueError(f"negative run length {count}")
        out.extend([value] * count)
    return out
