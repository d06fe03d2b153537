"""Group-by aggregation.

A blank cell is a missing value, not a zero: it does not take part in any
aggregation.  ``count`` is the number of non-missing values in the group.
"""

import math
from typing import Callable, Iterable, Mapping, Sequence, Union

AGGREGATIONS: dict[str, Callable[[list], object]] = {
    "count": len,
    "sum": math.fsum,
    "mean": lambda values: math.fsum(values) / len(values),
    "min": min,
    "max": max,
}


def _key(row: Mapping, by: Sequence[str]):
    return row[by[0]] if len(by) == 1 else tuple(row[name] for name in by)


def _groups(rows: Iterable[Mapping], by: Sequence[str]) -> dict:
    groups: dict = {}
    for row in rows:
        groups.setdefault(_key(row, by), []).append(row)
    return groups


def _aggregate(values: list, how: str):
    try:
        func = AGGREGATIONS[how]
    except KeyError:
        raise ValueError(f"unknown aggregation {how!r}; choose from {sorted(AGGREGATIONS)}") from None
    return func(values)


def group_by(rows: Iterable[Mapping], by: Union[str, Sequence[str]], column: str, how: str = "sum") -> dict:
    """Aggregate `column` per distinct value of `by`.

    `by` is a column name or a list of names (the keys are then tuples).
    Groups appear in the order they are first seen.
    """
    by = [by] if isinstance(by, str) else list(by)
    return {
        key: _aggregate([row[column] for row in members], how)
        for key, members in _groups(rows, by).items()
    }


def summarise(
    rows: Iterable[Mapping],
    by: Union[str, Sequence[str]],
    spec: Mapping[str, Sequence[str]],
) -> list[dict]:
    """Several aggregations at once, one output row per group.

    `spec` maps a column to the aggregations wanted for it, e.g.
    ``{"amount": ["sum", "mean"]}``; output columns are named ``amount_sum``,
    ``amount_mean`` and so on.
    """
    by = [by] if isinstance(by, str) else list(by)
    out = []
    for key, members in _groups(rows, by).items():
        record = dict(zip(by, key if len(by) > 1 else (key,)))
        for column, hows in spec.items():
            values = [row[column] for row in members]
            for how in hows:
                record[f"{column}_{how}"] = _aggregate(values, how)
        out.append(record)
    return out
