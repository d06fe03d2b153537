"""urlkit: helpers for building API URLs by hand.

    from urlkit import with_query
    with_query("https://api.example.com/search", {"q": "red shoes", "page": 2})
    # 'https://api.example.com/search?q=red%20shoes&page=2'
"""

from .encoding import quote_component, unquote_component
from .query import build_query, parse_query
from .url import join_path, with_query

__all__ = [
    "build_query",
    "join_path",
    "parse_query",
    "quote_component",
    "unquote_component",
    "with_query",
]
