"""casing: convert identifiers between naming conventions.

Used by our code generator to turn JSON field names (``userName``) into Python
attributes (``user_name``), CLI options (``--user-name``) and constants
(``USER_NAME``).
"""

from .convert import to_camel, to_constant, to_kebab, to_pascal, to_snake, to_title
from .words import split_words

__all__ = [
    "split_words",
    "to_camel",
    "to_constant",
    "to_kebab",
    "to_pascal",
    "to_snake",
    "to_title",
]
