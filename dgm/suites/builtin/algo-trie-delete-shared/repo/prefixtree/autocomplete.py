"""Weighted autocomplete on top of Trie."""

from typing import Iterable, List, Tuple

from .trie import Trie


class Autocomplete:
    """Suggest completions, most popular first.

    Each term is stored with a weight (e.g. how often it was searched).
    """

    def __init__(self, terms: Iterable[Tuple[str, int]] = ()) -> None:
        self._trie = Trie()
        for term, weight in terms:
            self.add(term, weight)

    def add(self, term: str, weight: int = 1) -> None:
        self._trie.insert(term.lower(), weight)

    def remove(self, term: str) -> bool:
        return self._trie.delete(term.lower())

    def suggest(self, prefix: str, limit: int = 5) -> List[str]:
        """Up to `limit` terms starting with `prefix`: highest weight first,
        then alphabetical."""
        prefix = prefix.lower()
        candidates = [(self._trie.get(term), term) for term in self._trie.starts_with(prefix)]
        candidates.sort(key=lambda pair: (-pair[0], pair[1]))
        return [term for _, term in candidates[:limit]]

    def __len__(self) -> int:
        return len(self._trie)
