"""Errors raised for bad pagination requests (mapped to HTTP 400 / 404 by the web layer)."""


class InvalidPageParams(ValueError):
    """`page` or `per_page` is not a positive integer, or per_page is above the limit."""


class PageOutOfRange(LookupError):
    """The requested page does not exist."""

    def __init__(self, page: int, total_pages: int):
        super().__init__(f"page {page} out of range (1..{total_pages})")
        self.page = page
        self.total_pages = total_pages
