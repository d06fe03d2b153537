"""Conversions between naming conventions, all built on :func:`split_words`."""

from .words import split_words


def to_snake(identifier: str) -> str:
    """``user_name`` style."""
    return "_".join(word.lower() for word in split_words(identifier))


def to_kebab(identifier: str) -> str:
    """``user-name`` style (CLI options, URLs)."""
    return "-".join(word.lower() for word in split_words(identifier))


def to_constant(identifier: str) -> str:
    """``USER_NAME`` style."""
    return "_".join(word.upper() for word in split_words(identifier))


def to_pascal(identifier: str) -> str:
    """``UserName`` style."""
    return "".join(word[:1].upper() + word[1:].lower() for word in split_words(identifier))


def to_camel(identifier: str) -> str:
    """``userName`` style."""
    pascal = to_pascal(identifier)
    words = split_words(identifier)
    if not words:
        return ""
    first = words[0].lower()
    return first + pascal[len(first):]


def to_title(identifier: str) -> str:
    """``User Name`` style, for labels in generated forms."""
    return " ".join(word[:1].upper() + word[1:].lower() for word in split_words(identifier))
