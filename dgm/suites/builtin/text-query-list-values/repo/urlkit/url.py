"""Whole URLs: adding query parameters and path segments."""

from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit, urlunsplit

from .encoding import quote_component
from .query import build_query


def with_query(url: str, params: Mapping | Iterable[tuple], sort: bool = False) -> str:
    """``url`` with ``params`` appended to its query string (fragment kept)."""
    parts = urlsplit(url)
    extra = build_query(params, sort=sort)
    if not extra:
        return url
    query = f"{parts.query}&{extra}" if parts.query else extra
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


def join_path(base: str, *segments) -> str:
    """Append percent-encoded path ``segments`` to ``base`` with single slashes.

    >>> join_path("https://api.example.com/v1/", "users", "ann smith")
    'https://api.example.com/v1/users/ann%20smith'
    """
    path = base.rstrip("/")
    for segment in segments:
        path += "/" + quote_component(str(segment))
    return path
