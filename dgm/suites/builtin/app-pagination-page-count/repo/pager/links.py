"""Building navigation links for a page, keeping the other query parameters."""

from urllib.parse import urlencode

from .page import Page


def page_url(base_url: str, params: dict[str, str], number: int, per_page: int) -> str:
    query = dict(params)
    query["page"] = str(number)
    query["per_page"] = str(per_page)
    return f"{base_url}?{urlencode(sorted(query.items()))}"


def navigation_links(page: Page, base_url: str, params: dict[str, str]) -> dict[str, str]:
    """`self`, `first`, `last` and, where they exist, `prev` and `next`."""
    links = {
        "self": page_url(base_url, params, page.number, page.per_page),
        "first": page_url(base_url, params, 1, page.per_page),
        "last": page_url(base_url, params, page.total_pages, page.per_page),
    }
    if page.has_previous:
        links["prev"] = page_url(base_url, params, page.number - 1, page.per_page)
    if page.has_next:
        links["next"] = page_url(base_url, params, page.number + 1, page.per_page)
    return links
