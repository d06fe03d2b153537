"""Hash joins over lists of row dicts.

Keys are compared as tuples of the key columns.  A row whose key contains None
(an empty cell) never matches anything, as in SQL.
"""

from typing import Iterable, Mapping, Sequence

Row = dict
Key = tuple


def row_key(row: Mapping, keys: Sequence[str]) -> Key:
    return tuple(row.get(k) for k in keys)


def build_index(rows: Iterable[Row], keys: Sequence[str]) -> dict[Key, list[Row]]:
    """Map each key to the rows having it, in their original order."""
    index: dict[Key, list[Row]] = {}
    for row in rows:
        key = row_key(row, keys)
        if None in key:
            continue
        index.setdefault(key, []).append(row)
    return index


def hash_join(
    left_rows: Sequence[Row],
    right_rows: Sequence[Row],
    keys: Sequence[str],
    renamed: Mapping[str, str],
    keep_unmatched_left: bool = False,
) -> list[Row]:
    """Join two lists of rows on `keys`.

    `renamed` maps each non-key column of the right rows to its name in the
    output.  Output rows come in the order of `left_rows`, each followed by its
    matches in the order of `right_rows`.  With `keep_unmatched_left`, left
    rows without a match are kept with None in the right-hand columns.
    """
    index = build_index(right_rows, keys)
    out: list[Row] = []
    for left in left_rows:
        key = row_key(left, keys)
        matches = [] if None in key else index.get(key, [])
        for right in matches:
            merged = dict(left)
            merged.update({new: right.get(old) for old, new in renamed.items()})
            out.append(merged)
        if not matches and keep_unmatched_left:
            merged = dict(left)
            merged.update({new: None for new in renamed.values()})
            out.append(merged)
    return out
