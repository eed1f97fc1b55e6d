"""Issue 21: a page's language comes from ?lang= (a screen without a keyboard), then the
language cookie the switch on every page sets, then the browser's Accept-Language; the
page says which (<html lang>, Content-Language) and the API stays English."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from tables import services
from tables.models import Round
from tests.html import find, find_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> None:
    table, _ = services.table_create(slug="baccarat-1", name="Baccarat 1")
    services.shoe_start(table=table)
    services.round_record(table=table, player=["AH", "3S", "5D"], banker=["JC", "2H", "AD"])


def html_lang(page: str) -> str:
    return find(page, "html").attrs.get("lang", "")


@pytest.mark.parametrize(
    ("accept", "language"),
    [("zh-CN,zh;q=0.9", "zh-hans"), ("zh-TW", "zh-hant"), ("ko-KR,ko;q=0.8,en;q=0.5", "ko"), ("vi", "vi"),
     ("th-TH", "th"), ("fr-FR", "en"), ("", "en")],
)  # fmt: skip
def test_the_browser_s_language_picks_the_page_s(client: Client, table: None, accept: str, language: str) -> None:
    response = client.get("/tables/baccarat-1/", headers={"accept-language": accept})
    assert html_lang(response.content.decode()) == language and response["Content-Language"] == language


def test_the_switch_s_cookie_beats_the_browser_and_lang_in_the_address_beats_both(client: Client, table: None) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    assert html_lang(client.get("/", headers={"accept-language": "th"}).content.decode()) == "ko"
    page = client.get("/tables/baccarat-1/display/?lang=zh-hant", headers={"accept-language": "th"})
    assert html_lang(page.content.decode()) == "zh-hant"
    assert find_all(page.content.decode(), "main", ws_connect="/ws/tables/baccarat-1/?lang=zh-hant")
    assert html_lang(client.get("/").content.decode()) == "ko", "?lang= changes no one's choice"


def test_the_switch_remembers_the_language_and_goes_back_to_the_page_without_lang(client: Client, table: None) -> None:
    page = client.get("/tables/baccarat-1/?lang=vi&shoe=1").content.decode()
    assert find_all(page, "input", name_="next", value="/tables/baccarat-1/?shoe=1")
    assert all(find_all(page, "option", value=code, lang=code) for code, _ in settings.LANGUAGES)
    response = client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/tables/baccarat-1/?shoe=1"})
    assert response.status_code == 302 and response["Location"] == "/tables/baccarat-1/?shoe=1"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    assert html_lang(client.get("/tables/baccarat-1/").content.decode()) == "zh-hans"


def test_an_unknown_lang_is_a_400_naming_the_languages_there_are(client: Client, table: None) -> None:
    response = client.get("/tables/baccarat-1/display/?lang=klingon")
    assert response.status_code == 400
    assert response.content.decode() == (
        "lang: 'klingon' is not a language of this site (one of en, zh-hans, zh-hant, ko, vi, th)"
    )


def test_the_api_stays_english_whatever_the_language(client: Client, table: None) -> None:
    answer = client.get("/api/tables/baccarat-1/roads", headers={"accept-language": "zh-CN"})
    assert answer.status_code == 200 and "good_roads" in answer.json()
    refused = client.post("/api/tables/baccarat-1/rounds", {}, content_type="application/json", headers={
        "accept-language": "zh-CN"})  # fmt: skip
    assert refused.status_code in (401, 403) and all(ord(c) < 128 for c in refused.content.decode())


def test_the_reviewer_s_desk_speaks_the_reviewer_s_language_and_has_the_switch(
    client: Client, table: None, staff_reviewer
) -> None:
    client.force_login(staff_reviewer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    page = client.get("/admin/").content.decode()
    assert html_lang(page) == "zh-hant" and find_all(page, "select", name_="language") and "js/language.js" in page
    assert "登出" in page  # Django's own admin, in Traditional Chinese
    assert "Log out" not in page and "Transaction ID" not in page


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", "2026-11-23 21:05:09 UTC"), ("zh-hans", "2026年11月23日 21:05:09 UTC"),
     ("ko", "2026년 11월 23일 21:05:09 UTC"), ("vi", "21:05:09 23/11/2026 UTC"), ("th", "23/11/2026 21:05:09 UTC")],
)  # fmt: skip
def test_a_receipt_writes_its_round_s_time_as_the_language_does_to_the_second(
    client: Client, table: None, language: str, written: str
) -> None:
    round_ = Round.objects.get()
    Round.objects.filter(pk=round_.pk).update(created_at=datetime(2026, 11, 23, 21, 5, 9, tzinfo=UTC))
    page = client.get(f"/rounds/{round_.round_id}/?lang={language}").content.decode()
    assert written in [time.text for time in find_all(page, "time")]


@pytest.mark.parametrize("page", ["400.html", "403.html", "404.html", "500.html"])
def test_an_error_page_speaks_the_reader_s_language_without_a_request(page: str) -> None:
    """Django renders 400 and 500 with no request (so no context processor): the page
    reads the active language itself."""
    english = render_to_string(page)
    with translation.override("ko"):
        korean = render_to_string(page)
    assert html_lang(korean) == "ko" and "로비" in korean
    heading = find(english, "h1", cls="page-title").text
    assert heading not in korean


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES if code != "en"])
@pytest.mark.parametrize("variant", ["standard", "no_commission"])
def test_the_odds_page_s_return_tables_speak_the_page_s_language(client: Client, language: str, variant: str) -> None:
    services.table_create(slug="odds", name="Baccarat 1", variant=variant)

    def rows(lang: str) -> list[str]:
        page = client.get(f"/tables/odds/odds/?lang={lang}").content.decode()
        bodies = find_all(page, "tbody")
        return [find_all(row.html, "td")[0].text for body in bodies for row in find_all(body.html, "tr")]

    english, translated = rows("en"), rows(language)
    assert "Natural win" in english and "Win by 4" in english and "Pair on one hand" in english
    assert len(translated) == len(english) > 40
    assert [(en, word) for en, word in zip(english, translated, strict=True) if en == word] == []
