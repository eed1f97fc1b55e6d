"""The table page measured at every size a player or an operator uses it (issue 31): on a
full 80-round shoe and a long-streak shoe, in English, 繁體中文 and ไทย. On a phone the
Big Road comes first with the largest cells and its newest columns in view; on a desktop
or a wide screen every road shows the whole shoe; at every size nothing scrolls sideways,
no text runs into other text or is cut, and a translated page has no English left in
its headings, labels and buttons."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tables.game.shoe import DealingShoe

from .browsing import SIZES, LiveServer, page_width, screenshot, serving, sized_page
from .measuring import WELL_SET, english_left, headings, road_figures, text_faults
from .naturals import LONG_STREAKS, NaturalShoe

LIVE = "#connection.connection-live"
PHONES = ("phone-360", "phone-390")
LANGUAGES = ("en", "zh-hant", "th")
READABLE_ON_A_PHONE = 22  # CSS px: the Big Road's cells on a phone, at the least


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serving(LiveServer(tmp_path_factory.mktemp("measured")))


@pytest.fixture(scope="module")
def shoes(server: LiveServer) -> dict[str, str]:
    """Two tables: a whole shoe dealt by the rules to the cut card, and a long-streak shoe."""
    server.table("full-shoe", "Baccarat 1")
    server.post("full-shoe", "shoes")
    shoe, dealt = DealingShoe.shuffled(rng=random.Random(80)), []
    while not shoe.finished:
        outcome = shoe.deal()
        dealt.append(
            {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        )
    server.record("full-shoe", dealt)  # the table's history before its pages open: at once
    server.table("long-streaks", "Squeeze Baccarat 6")
    server.post("long-streaks", "shoes")
    naturals = NaturalShoe()
    server.record("long-streaks", [naturals.round(winner) for winner in LONG_STREAKS])
    return {"an 80-round shoe": "full-shoe", "a long-streak shoe": "long-streaks"}


def ids_cut(page: Any) -> list[str]:
    """The round IDs of the game history that do not show whole."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#history tbody td a[href^="/rounds/"]')]
            .filter(a => a.scrollWidth > a.clientWidth || a.getBoundingClientRect().width < a.scrollWidth)
            .map(a => a.textContent)"""
    )


def top_road(page: Any) -> str:
    """The road a reader meets first, going down the page."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#roads svg.road')]
            .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0].id"""
    )


def scrolled_back_notes(page: Any, road: str) -> dict[str, Any]:
    """A road's name notes after its box is scrolled back to the shoe's first column."""
    return page.evaluate(
        """async road => {
            const box = document.getElementById(road).closest('.road-box');
            box.scrollLeft = -box.scrollWidth;
            await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
            const slot = box.closest('.road-slot'), note = which => slot.querySelector(which);
            return {earlier: note('.earlier').hidden ? null : note('.earlier').textContent,
                    later: note('.later').hidden ? null : note('.later').textContent};
        }""",
        road,
    )


def chevron_px(page: Any) -> list[float]:
    """The font size of every scroll chevron shown beside a board (CSS px)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.road-frame.has-earlier, .road-frame.has-later')].flatMap(frame =>
            ['::before', '::after'].map(which => getComputedStyle(frame, which))
                .filter(hint => hint.display !== 'none').map(hint => parseFloat(hint.fontSize)))"""
    )


@pytest.mark.parametrize("shoe", ["an 80-round shoe", "a long-streak shoe"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_page_at_each_size_in_three_languages(
    server: LiveServer, browser: Any, shoes: dict[str, str], size: str, shoe: str
) -> None:
    slug, (width, _) = shoes[shoe], SIZES[size]
    with sized_page(browser, size) as page:
        english: set[str] = set()
        for language in LANGUAGES:
            page.goto(f"{server.url}/tables/{slug}/?lang={language}")
            page.wait_for_selector(LIVE)
            screenshot(page, f"measured-{slug}-{size}-{language}", full_page=False)
            if language == "en":
                english = set(headings(page)) - {page.inner_text("h1")}  # the table's name is a name
            else:
                assert english_left(page, english) == [], f"{language}: English left"
            assert page_width(page) <= width, "the page scrolls sideways"
            assert text_faults(page, "main") == WELL_SET, language
            figures = road_figures(page)
            for name, road in figures.items():
                assert road["boxLeft"] <= road["newestX"] <= road["boxRight"], f"{name}: newest column out of view"
            assert ids_cut(page) == [], "a round's ID is read out whole in a dispute"
            derived = [figures[name]["cell"] for name in ("big_eye_road", "small_road", "cockroach_road")]
            assert max(derived) - min(derived) < 0.5, "the three derived roads in one cell size"
            for name, road in figures.items():
                if road["left"] > 1:  # a road that scrolls opens on whole columns, no half column at its edge
                    columns = road["box"] / road["cell"]
                    assert abs(columns - round(columns)) < 0.05, f"{name}: {columns:.2f} columns in view"
            assert all(px >= 24 for px in chevron_px(page)), "a scroll chevron large enough to see"
            if size in PHONES:
                assert top_road(page) == "road-big_road", "a phone's first road is the Big Road"
                big = figures["big_road"]["cell"]
                assert big >= READABLE_ON_A_PHONE and big >= max(road["cell"] for road in figures.values())
                if language == "en" and figures["big_road"]["left"] > 1:
                    notes = scrolled_back_notes(page, "road-big_road")
                    assert notes["earlier"] is None and notes["later"] and "later columns ›" in notes["later"], notes
            elif width >= 1440:
                assert {name: road["left"] for name, road in figures.items()} == dict.fromkeys(figures, 0), (
                    "every road whole on a desktop"
                )
