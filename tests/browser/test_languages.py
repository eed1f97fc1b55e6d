"""Seen in a real browser (issue 21): the lobby and a table page in every language, on a
390 px phone with nothing clipped or scrolling sideways; the road names Chinese players
know; the switch on a page; ``?lang=`` on a table display; a live push in the page's
language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation

from .browsing import LiveServer, page_width, screenshot, sized_page
from .measuring import ENGLISH_WORD, english_left, headings

LIVE = "#connection.connection-live"
TRANSLATED = [code for code, _ in settings.LANGUAGES if code != "en"]
ROAD_NAMES = {
    "zh-hans": ["珠盘路", "大路", "大眼仔", "小路", "曱甴路"],
    "zh-hant": ["珠盤路", "大路", "大眼仔", "小路", "曱甴路"],
}
# What a heading may keep in Latin letters in any language: the product's data (table
# names), and names that are the same everywhere.


def natural(winner: str, n: int) -> dict[str, list[str]]:
    suit = "HDCS"[n % 4]
    nine, five = [f"9{suit}", f"K{suit}"], [f"2{suit}", f"3{suit}"]
    return {"player": five, "banker": nine} if winner == "B" else {"player": nine, "banker": five}


@pytest.fixture(scope="module")
def dealt(server: LiveServer) -> str:
    server.table("lang-1", "Baccarat 1")
    server.post("lang-1", "shoes")
    for n, winner in enumerate("BBPBPPBB"):
        server.post("lang-1", "rounds", natural(winner, n))
    return "lang-1"


def overflowing(page: Any) -> list[str]:
    """Elements whose text runs out of their box (clipped or spilling), shown on the page."""
    return page.evaluate("""() => [...document.querySelectorAll('h1, h2, h3, dt, dd, th, td, .badge, button, a')]
        .filter(e => e.offsetParent && getComputedStyle(e).overflowX !== 'auto' && e.scrollWidth > e.clientWidth + 1
                     && getComputedStyle(e).display !== 'inline')
        .map(e => e.tagName + ': ' + e.innerText.slice(0, 40))""")


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_lobby_and_a_table_page_read_in_the_language_on_a_phone(
    server: LiveServer, browser: Any, dealt: str, language: str
) -> None:
    with sized_page(browser, "phone-390") as page:
        for path, name in (("/", "lobby"), (f"/tables/{dealt}/", "table")):
            page.goto(f"{server.url}{path}?lang=en")
            page.wait_for_selector(LIVE)
            english = set(headings(page))
            page.goto(f"{server.url}{path}?lang={language}")
            page.wait_for_selector(LIVE)
            assert page.get_attribute("html", "lang") == language
            screenshot(page, f"{name}-{language}-390")
            assert english_left(page, english) == [], f"{name} in {language}"
            assert page_width(page) <= 390, f"{name} in {language} scrolls sideways"
            assert overflowing(page) == [], f"{name} in {language}"
        if language in ROAD_NAMES:
            shown = page.eval_on_selector_all("#roads .road-name span[id]", "els => els.map(e => e.innerText)")
            assert shown == ROAD_NAMES[language]


def test_a_player_switches_the_language_on_a_page_and_it_is_remembered(
    server: LiveServer, page: Any, dealt: str
) -> None:
    page.goto(f"{server.url}/tables/{dealt}/")
    page.wait_for_selector(LIVE)
    assert page.get_attribute("html", "lang") == "en" and page.is_visible("text=Big Road")
    with page.expect_navigation():
        page.select_option("select[name=language]", "zh-hant")
    page.wait_for_selector(LIVE)
    assert page.get_attribute("html", "lang") == "zh-hant" and page.url == f"{server.url}/tables/{dealt}/"
    assert page.is_visible("text=珠盤路")
    page.goto(f"{server.url}/")  # another page, in the language chosen
    assert page.get_attribute("html", "lang") == "zh-hant"


def test_a_table_display_set_up_with_lang_shows_its_pushes_in_that_language(
    server: LiveServer, browser: Any, dealt: str
) -> None:
    with sized_page(browser, "tv") as page:
        page.goto(f"{server.url}/tables/{dealt}/display/?lang=zh-hans")
        page.wait_for_selector(LIVE)
        assert page.get_attribute("html", "lang") == "zh-hans"
        screenshot(page, "display-zh-hans-tv", full_page=False)
        before = page.inner_text("#game-info")
        server.post(dealt, "rounds", natural("P", 9))
        page.wait_for_function("before => document.getElementById('game-info').innerText !== before", arg=before)
        with translation.override("zh-hans"):
            big_road, dealer = translation.gettext("Big Road"), translation.gettext("Dealer")
        labels = page.eval_on_selector_all("#game-info dt", "els => els.map(e => e.textContent)")  # as pushed
        assert dealer == "荷官" and dealer in labels and not any(ENGLISH_WORD.search(label) for label in labels)
        assert big_road == "大路" and big_road in page.inner_html("#alt-big_road")  # the road's words, pushed
        assert page.get_attribute("html", "lang") == "zh-hans"


THAI_FACES = re.compile(r"Thai|Garuda|Loma|Kinnari|Norasi|Umpush|Waree|Sawasdee|Purisa|Tlwg|Leelawadee|Thonburi")


def faces_of(page: Any, selector: str) -> list[str]:
    """The fonts the browser set the element's own text in (Chromium's own account)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    return [font["familyName"] for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]


@pytest.mark.parametrize("language", ["th", "zh-hant", "ko", "vi"])
def test_a_latin_name_on_a_page_in_another_script_is_set_in_a_latin_face(
    server: LiveServer, page: Any, dealt: str, language: str
) -> None:
    page.goto(f"{server.url}/tables/{dealt}/?lang={language}")
    page.wait_for_selector(LIVE)
    assert page.inner_text("h1") == "Baccarat 1"
    faces = faces_of(page, "h1")
    assert faces and not [face for face in faces if THAI_FACES.search(face) or "CJK" in face], faces


@pytest.mark.parametrize(("language", "marks"), [("vi", ",."), ("en", ".,"), ("th", ".,")])
def test_a_chart_writes_its_numbers_with_the_decimal_mark_the_page_s_tables_use(
    server: LiveServer, browser: Any, dealt: str, language: str, marks: str
) -> None:
    with sized_page(browser, "desktop") as page:
        page.goto(f"{server.url}/tables/{dealt}/?lang={language}")
        page.wait_for_function("() => document.querySelector('[data-chart]')?.layout")
        separators = page.evaluate("[...document.querySelectorAll('[data-chart]')].map(c => c.layout.separators)")
        assert separators and set(separators) == {marks}
