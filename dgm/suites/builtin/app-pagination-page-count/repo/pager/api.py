"""The JSON envelope returned by every list endpoint."""

from typing import Any, Sequence

from .errors import InvalidPageParams
from .links import navigation_links
from .page import paginate

DEFAULT_PER_PAGE = 20
MAX_PER_PAGE = 100


def _parse_positive(params: dict[str, str], name: str, default: int) -> int:
    raw = params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise InvalidPageParams(f"{name} must be an integer, got {raw!r}") from None
    if value < 1:
        raise InvalidPageParams(f"{name} must be at least 1")
    return value


def list_response(results: Sequence[Any], base_url: str, params: dict[str, str]) -> dict[str, Any]:
    """Paginate `results` according to the request's query `params`."""
    page_number = _parse_positive(params, "page", 1)
    per_page = _parse_positive(params, "per_page", DEFAULT_PER_PAGE)
    if per_page > MAX_PER_PAGE:
        raise InvalidPageParams(f"per_page must be at most {MAX_PER_PAGE}")
    page = paginate(results, page_number, per_page)
    others = {k: v for k, v in params.items() if k not in ("page", "per_page")}
    return {
        "data": page.items,
        "meta": {
            "page": page.number,
            "per_page": page.per_page,
            "total": page.total,
            "total_pages": page.total_pages,
        },
        "links": navigation_links(page, base_url, others),
    }
