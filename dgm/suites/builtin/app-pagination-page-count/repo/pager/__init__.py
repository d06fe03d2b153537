"""Pagination for the public REST API's list endpoints."""

from .api import list_response
from .errors import InvalidPageParams, PageOutOfRange
from .page import Page, paginate

__all__ = ["InvalidPageParams", "Page", "PageOutOfRange", "list_response", "paginate"]
