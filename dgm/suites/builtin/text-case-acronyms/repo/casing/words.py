"""Splitting identifiers into words.

Words are separated by underscores, hyphens, dots, blanks, or a change of case
inside the identifier (``fooBar`` -> ``foo``, ``Bar``). Runs of capitals are
acronyms and stay together (``XMLParser`` -> ``XML``, ``Parser``).
"""

import re

_SEPARATORS = re.compile(r"[\s_.\-]+")
_CASE_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z])")


def split_words(identifier: str) -> list[str]:
    """The words of ``identifier``, in order, with their original case.

    >>> split_words("user_name")
    ['user', 'name']
    >>> split_words("userName")
    ['user', 'Name']
    """
    words = []
    for chunk in _SEPARATORS.split(identifier):
        if chunk:
            words.extend(part for part in _CASE_BOUNDARY.split(chunk) if part)
    return words
