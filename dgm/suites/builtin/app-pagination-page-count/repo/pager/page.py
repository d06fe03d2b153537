"""Slicing a result list into pages."""

from dataclasses import dataclass
from typing import Any, Sequence

from .errors import PageOutOfRange


@dataclass(frozen=True)
class Page:
    """One page of results. `number` is 1-based."""

    items: list[Any]
    number: int
    per_page: int
    total: int

    @property
    def total_pages(self) -> int:
        """Number of pages needed for `total` results; an empty result still has one (empty) page."""
        return max(1, self.total // self.per_page)

    @property
    def has_next(self) -> bool:
        return self.number < self.total_pages

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def first_index(self) -> int:
        """1-based position of the first item on this page (0 when the page is empty)."""
        return (self.number - 1) * self.per_page + 1 if self.items else 0


def paginate(results: Sequence[Any], page: int, per_page: int) -> Page:
    """Return page number `page` of `results`, raising PageOutOfRange past the end."""
    total = len(results)
    start = (page - 1) * per_page
    candidate = Page(list(results[start:start + per_page]), page, per_page, total)
    if page < 1 or page > candidate.total_pages:
        raise PageOutOfRange(page, candidate.total_pages)
    return candidate
