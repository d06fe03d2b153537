import pytest

from pager import PageOutOfRange, list_response, paginate

ITEMS = list(range(1, 46))  # 45 results


def test_partial_last_page_is_counted():
    assert paginate(ITEMS, 1, 10).total_pages == 5
    assert paginate(list(range(7)), 1, 5).total_pages == 2
    assert paginate(list(range(101)), 1, 20).total_pages == 6


def test_partial_last_page_can_be_fetched():
    page = paginate(ITEMS, 5, 10)
    assert page.items == [41, 42, 43, 44, 45]
    assert page.first_index == 41
    assert not page.has_next
    assert page.has_previous


def test_page_before_partial_page_has_next():
    assert paginate(ITEMS, 4, 10).has_next


def test_api_meta_and_links_for_partial_page():
    body = list_response(ITEMS, "/api/books", {"page": "4", "per_page": "10"})
    assert body["meta"]["total_pages"] == 5
    assert body["links"]["next"] == "/api/books?page=5&per_page=10"
    assert body["links"]["last"] == "/api/books?page=5&per_page=10"
    last = list_response(ITEMS, "/api/books", {"page": "5", "per_page": "10"})
    assert last["data"] == [41, 42, 43, 44, 45]
    assert "next" not in last["links"]


def test_beyond_partial_last_page_is_out_of_range():
    with pytest.raises(PageOutOfRange) as info:
        paginate(ITEMS, 6, 10)
    assert info.value.total_pages == 5


def test_exact_multiple_and_small_results_unchanged():
    assert paginate(list(range(40)), 1, 10).total_pages == 4
    assert paginate(list(range(3)), 1, 10).total_pages == 1
    assert paginate([], 1, 10).total_pages == 1
    with pytest.raises(PageOutOfRange):
        paginate(list(range(40)), 5, 10)
