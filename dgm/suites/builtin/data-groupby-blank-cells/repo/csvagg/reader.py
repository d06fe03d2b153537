"""Reading CSV text into typed rows."""

import csv
import io
from typing import Callable, Mapping, Optional, TextIO, Union

Converter = Callable[[str], object]


def _convert(cell: Optional[str], converter: Converter):
    if cell is None:
        return None
    cell = cell.strip()
    if cell == "":
        return None
    return converter(cell)


def read_csv(
    source: Union[str, TextIO],
    types: Optional[Mapping[str, Converter]] = None,
    delimiter: str = ",",
) -> list[dict]:
    """Read CSV text (or an open text file) into a list of dicts.

    Columns listed in `types` are converted with the given callable (e.g.
    ``{"amount": float}``); other columns stay strings.  Blank cells in typed
    columns become ``None`` so that they can be told apart from zeros.
    """
    if isinstance(source, str):
        source = io.StringIO(source)
    types = dict(types or {})
    rows = []
    for record in csv.DictReader(source, delimiter=delimiter):
        row = {}
        for name, cell in record.items():
            if name in types:
                row[name] = _convert(cell, types[name])
            else:
                row[name] = (cell or "").strip()
        rows.append(row)
    return rows
