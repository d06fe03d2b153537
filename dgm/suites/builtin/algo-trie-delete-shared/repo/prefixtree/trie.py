"""The Trie container."""

from typing import Any, Iterator, List, Optional

from .node import TrieNode


class Trie:
    """Set of strings (optionally with a value each) supporting prefix queries."""

    def __init__(self, words=()) -> None:
        self._root = TrieNode()
        self._size = 0
        for word in words:
            self.insert(word)

    def _find(self, prefix: str) -> Optional[TrieNode]:
        node = self._root
        for ch in prefix:
            node = node.children.get(ch)
            if node is None:
                return None
        return node

    def insert(self, word: str, value: Any = None) -> None:
        """Add `word` (replacing its value if already present)."""
        node = self._root
        for ch in word:
            node = node.children.setdefault(ch, TrieNode())
        if not node.terminal:
            node.terminal = True
            self._size += 1
        node.value = value

    def get(self, word: str, default: Any = None) -> Any:
        node = self._find(word)
        if node is None or not node.terminal:
            return default
        return node.value

    def delete(self, word: str) -> bool:
        """Remove `word`; return whether it was present.

        Other words are never affected, even when they share a prefix with
        `word`. Nodes that no longer lead to any word are pruned.
        """
        path = [self._root]
        node = self._root
        for ch in word:
            node = node.children.get(ch)
            if node is None:
                return False
            path.append(node)
        if not node.terminal:
            return False
        node.terminal = False
        node.value = None
        self._size -= 1
        # Prune the now-unused branch, walking back up towards the root.
        for ch, parent in zip(reversed(word), reversed(path[:-1])):
            del parent.children[ch]
            if parent.terminal:
                break
        return True

    def starts_with(self, prefix: str) -> List[str]:
        """All stored words beginning with `prefix`, sorted."""
        node = self._find(prefix)
        if node is None:
            return []
        return [word for word, _ in node.walk(prefix)]

    def count_prefix(self, prefix: str) -> int:
        return len(self.starts_with(prefix))

    def longest_prefix_of(self, text: str) -> Optional[str]:
        """Longest stored word that is a prefix of `text`, or None."""
        node = self._root
        best = "" if node.terminal else None
        for i, ch in enumerate(text):
            node = node.children.get(ch)
            if node is None:
                break
            if node.terminal:
                best = text[: i + 1]
        return best

    def node_count(self) -> int:
        """Number of nodes currently allocated (root included)."""
        return self._root.size()

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        node = self._find(word)
        return node is not None and node.terminal

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[str]:
        return (word for word, _ in self._root.walk())
