"""Trie nodes."""

from typing import Any, Dict, Iterator, Tuple


class TrieNode:
    """One node of a trie: outgoing edges keyed by character, plus a marker
    saying whether a stored word ends here (and the value stored with it)."""

    __slots__ = ("children", "terminal", "value")

    def __init__(self) -> None:
        self.children: Dict[str, "TrieNode"] = {}
        self.terminal = False
        self.value: Any = None

    def walk(self, prefix: str = "") -> Iterator[Tuple[str, "TrieNode"]]:
        """Yield (word, node) for every terminal node below, in sorted order."""
        if self.terminal:
            yield prefix, self
        for ch in sorted(self.children):
            yield from self.children[ch].walk(prefix + ch)

    def size(self) -> int:
        """Number of nodes in this subtree, this node included."""
        return 1 + sum(child.size() for child in self.children.values())
