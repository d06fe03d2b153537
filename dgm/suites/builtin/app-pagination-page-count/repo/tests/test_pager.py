import pytest

from pager import InvalidPageParams, PageOutOfRange, list_response, paginate

ITEMS = list(range(1, 31))  # 30 results


def test_first_page():
    page = paginate(ITEMS, 1, 10)
    assert page.items == list(range(1, 11))
    assert page.total_pages == 3
    assert page.has_next and not page.has_previous


def test_last_full_page():
    page = paginate(ITEMS, 3, 10)
    assert page.items == list(range(21, 31))
    assert not page.has_next
    assert page.first_index == 21


def test_empty_results_have_one_page():
    page = paginate([], 1, 10)
    assert page.items == [] and page.total_pages == 1 and page.first_index == 0


def test_page_zero_is_out_of_range():
    with pytest.raises(PageOutOfRange):
        paginate(ITEMS, 0, 10)


def test_list_response_envelope():
    body = list_response(ITEMS, "/api/books", {"page": "2", "per_page": "10", "q": "tolkien"})
    assert body["data"] == list(range(11, 21))
    assert body["meta"] == {"page": 2, "per_page": 10, "total": 30, "total_pages": 3}
    assert body["links"]["next"] == "/api/books?page=3&per_page=10&q=tolkien"
    assert body["links"]["prev"] == "/api/books?page=1&per_page=10&q=tolkien"


def test_bad_params():
    with pytest.raises(InvalidPageParams):
        list_response(ITEMS, "/api/books", {"per_page": "abc"})
    with pytest.raises(InvalidPageParams):
        list_response(ITEMS, "/api/books", {"per_page": "500"})
