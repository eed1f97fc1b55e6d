"""While the database is down, pages answer 503 with Retry-After in the reader's
language, not 500: the same request a moment later is answered."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import Client

from tests.html import find_all


@pytest.fixture
def database_down(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    monkeypatch.setattr("tables.selectors.lobby_sources", refused)
    monkeypatch.setattr("tables.selectors.shoe_find", refused)


@pytest.mark.parametrize("path", ["/", "/tables/baccarat-1/", "/tables/baccarat-1/display/"])
def test_a_page_answers_503_with_retry_after_while_the_database_is_down(
    baccarat_1, database_down: None, path: str
) -> None:
    response = Client(raise_request_exception=False).get(path)
    assert (response.status_code, response["Retry-After"]) == (503, "2")
    [heading] = find_all(response.content.decode(), "h1")
    assert heading.text == "Briefly unavailable"


def test_the_503_page_speaks_the_reader_s_language(baccarat_1, database_down: None) -> None:
    response = Client(raise_request_exception=False).get("/?lang=zh-hant")
    assert response.status_code == 503
    [heading] = find_all(response.content.decode(), "h1")
    assert heading.text != "Briefly unavailable" and heading.text.strip()


def test_a_read_of_the_api_answers_503_in_its_error_shape(baccarat_1, database_down: None) -> None:
    response = Client(raise_request_exception=False).get("/api/tables/baccarat-1/rounds")
    assert (response.status_code, response["Retry-After"]) == (503, "2")
    assert response.json()["errors"][0]["message"].startswith("the database is unavailable")


def test_a_bug_is_still_a_500(baccarat_1, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr("tables.selectors.lobby_sources", broken)
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500 and "Retry-After" not in response
