"""Small text helpers used by the blog generator."""

from .slug import slugify
from .words import word_count

__all__ = ["slugify", "word_count"]
