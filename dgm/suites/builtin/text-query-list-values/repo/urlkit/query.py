"""Query strings: building them from parameters and parsing them back."""

from collections.abc import Iterable, Mapping

from .encoding import quote_component, unquote_component


def _to_text(value) -> str:
    """How a single parameter value is written in a query string."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def build_query(params: Mapping | Iterable[tuple], sort: bool = False) -> str:
    """Encode ``params`` as ``key=value`` pairs joined by ``&``.

    ``params`` is a mapping or an iterable of ``(key, value)`` pairs. Values are
    converted with ``str()`` (booleans become ``true``/``false``); parameters whose
    value is ``None`` are left out. ``sort=True`` orders the pairs by key, which
    gives stable URLs for caching.

    >>> build_query({"q": "red shoes", "page": 2})
    'q=red%20shoes&page=2'
    """
    items = list(params.items() if isinstance(params, Mapping) else params)
    if sort:
        items.sort(key=lambda item: str(item[0]))
    pairs = []
    for key, value in items:
        if value is None:
            continue
        pairs.append(f"{quote_component(str(key))}={quote_component(_to_text(value))}")
    return "&".join(pairs)


def parse_query(query: str) -> dict[str, list[str]]:
    """Decode a query string into ``{key: [values...]}`` (keys keep their order).

    A leading ``?`` is ignored, ``+`` means a space, and a key without ``=``
    gets an empty value.

    >>> parse_query("?tag=a&tag=b&q=x+y")
    {'tag': ['a', 'b'], 'q': ['x y']}
    """
    result: dict[str, list[str]] = {}
    for part in query.lstrip("?").split("&"):
        if not part:
            continue
        key, _, value = part.partition("=")
        result.setdefault(unquote_component(key, True), []).append(unquote_component(value, True))
    return result
