"""A character trie with prefix queries and weighted autocomplete."""

from .autocomplete import Autocomplete
from .trie import Trie

__all__ = ["Autocomplete", "Trie"]
