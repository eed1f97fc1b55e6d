"""The lobby wall (/lobby/screen/) on the TVs it is made for: whatever the number of
tables, the page fills the screen without scrolling, roads fill their cards with marks
big enough to read from 3 m, the counts keep to one line, and cards stay live."""

from __future__ import annotations

import json
import random
from datetime import datetime
from typing import Any

import pytest

from tables.game.outcome import RoundOutcome
from tables.game.shoe import DealingShoe

from .browsing import ARTIFACTS, SIZES, LiveServer, screenshot, sized_page

LIVE = "#connection.connection-live"
MIN_MARK = 24  # CSS px: a road cell's side on the wall, at the least
TV_SIZES = ("tv", "tv-portrait")
NOW = datetime(2026, 11, 23, 21, 7, 30)

# Every visible card as the browser draws it: its box, its roads' cells (the viewBox
# scaled into the SVG's rendered box) and the part of each SVG its viewBox leaves empty
# (letterboxing), and how tall its counts are against one line of their text.
MEASURE = """() => [...document.querySelectorAll('#lobby-grid .table-card')].filter(c => !c.hidden).map(card => {
  const box = card.getBoundingClientRect();
  const roads = [...card.querySelectorAll('svg.road')].map(svg => {
    const r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
    const scale = Math.min(r.width / vb.width, r.height / vb.height);
    const area = r.width * r.height;
    return {cell: 20 * scale, empty: 1 - (vb.width * scale * vb.height * scale) / area, area};
  });
  const counts = card.querySelector('.counts dd'), name = card.querySelector('h2');
  const shelf = card.querySelector('.card-badges').getBoundingClientRect();
  const badges = [...card.querySelectorAll('.card-badges .badge')].map(b => b.getBoundingClientRect())
    .filter(b => b.top < shelf.bottom);  // on the shelf's line: the others wrapped out of sight
  return {
    nameCut: name.scrollWidth > name.clientWidth + 1,
    badgesShown: badges.length,
    badgesCut: badges.filter(b => b.left < shelf.left - 0.5 || b.right > shelf.right + 0.5
                                  || b.bottom > shelf.bottom + 0.5).length,
    slug: card.dataset.table, x: box.x, y: box.y, right: box.right, bottom: box.bottom, area: box.width * box.height,
    roads, countsHeight: counts.getBoundingClientRect().height,
    countsLine: parseFloat(getComputedStyle(counts).lineHeight),
  };
})"""


SHOES: dict[str, DealingShoe] = {}  # each table's shoe, dealt on as the tests post rounds


def deal(server: LiveServer, slug: str) -> None:
    """Post the table's next round, dealt by the rules from its shoe."""
    server.post(slug, "rounds", cards(SHOES[slug].deal()))


def cards(outcome: RoundOutcome) -> dict[str, list[str]]:
    return {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}


def tables(server: LiveServer, first: int, last: int) -> None:
    """Tables ``first`` to ``last - 1``, each a shoe dealt from a shuffled shoe: wall-00's
    is 60 rounds in (a whole shoe's worth of columns), the others a few rounds."""
    for n in range(first, last):
        slug = f"wall-{n:02d}"
        server.table(slug, f"Baccarat {n + 1:02d}")
        server.post(slug, "shoes")
        shoe = SHOES[slug] = DealingShoe.shuffled(rng=random.Random(n))
        # Before the wall's pages open (they are closed between counts): at once.
        server.record(slug, [cards(shoe.deal()) for _ in range(60 if n == 0 else 3 + 5 * n % 11)])


def visible_tables(page: Any) -> list[str]:
    return page.evaluate(
        "[...document.querySelectorAll('#lobby-grid .table-card')].filter(c => !c.hidden).map(c => c.dataset.table)"
    )


def round_shown(page: Any, slug: str) -> str:
    return page.locator(f"#table-{slug} .facts div:nth-child(3) dd").inner_text()


def dealt_and_shown(server: LiveServer, page: Any, slug: str) -> None:
    """Deal the table a round and wait for its card on the page to show it, pushed."""
    number = int(round_shown(page, slug)) + 1
    deal(server, slug)
    page.wait_for_function(
        "([slug, n]) => document.querySelector(`#table-${slug} .facts div:nth-child(3) dd`).textContent.trim() == n",
        arg=[slug, str(number)],
    )


def well_drawn(card: dict[str, Any], width: int, height: int) -> None:
    assert card["x"] >= 0 and card["y"] >= 0 and card["right"] <= width and card["bottom"] <= height, card
    assert len(card["roads"]) == 2
    for road in card["roads"]:
        assert road["cell"] >= MIN_MARK - 0.01, (card["slug"], road)  # layout rounds to a hundredth of a px
        assert road["empty"] < 0.01, (card["slug"], road)  # no letterboxing
    assert card["countsHeight"] <= card["countsLine"] * 1.05, card  # one line
    assert not card["nameCut"] and card["badgesCut"] == 0, card  # the name whole, badges whole or not at all


def cut_shoes(page: Any) -> list[str]:
    """The roads of the wall's shown cards that leave out some of their shoe: their
    first column, or their newest, out of view."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#lobby-grid .table-card:not([hidden]) svg.road')].filter(svg => {
            const view = svg.viewBox.baseVal, marks = svg.querySelector('g'), box = marks.getBBox();
            const newest = marks.childElementCount ? Math.floor((box.x + box.width) / 20) : 0;
            return view.x > 0 || (view.x + view.width) / 20 < newest + 1;
        }).map(svg => svg.closest('.table-card').dataset.table + ' ' + svg.getAttribute('class'))"""
    )


def one_size(cards: list[dict[str, Any]]) -> bool:
    widths, heights = [c["right"] - c["x"] for c in cards], [c["bottom"] - c["y"] for c in cards]
    return max(widths) - min(widths) < 1 and max(heights) - min(heights) < 1


def wall_figures(page: Any, wall: LiveServer, size: str, count: int) -> list[dict[str, Any]]:
    """Open the wall, check what every screen of it must show, deal a round to one of
    its tables and see the card change as drawn as the others; return the cards' figures."""
    page.clock.set_fixed_time(NOW)
    page.goto(wall.url + "/lobby/screen/")
    page.wait_for_selector(LIVE, state="attached")
    screenshot(page, f"lobby-wall-{count}-tables-{size}")
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]") == [
        width,
        height,
    ], "the wall scrolls"
    cards = page.evaluate(MEASURE)
    if count == 1:  # a lone table's card has the room: its whole shoe, 60 rounds, from the first column
        assert cut_shoes(page) == []
    for card in cards:
        card["whole"] = not [road for road in cut_shoes(page) if road.startswith(card["slug"] + " ")]
    pages = -(-count // 12)
    assert len(cards) == -(-count // pages)  # balanced pages: 14 tables are two pages of 7
    for card in cards:
        well_drawn(card, width, height)
    assert one_size(cards), "the cards of a page are one size, a short last row's too"
    assert page.locator("#wall-clock").inner_text() == page.evaluate(
        "(d => String(d.getHours()).padStart(2, '0') + ':' + String(d.getMinutes()).padStart(2, '0'))(new Date())"
    )  # the time now, as the screen's own clock has it (naive NOW: the browser's zone)
    assert page.locator("#screen-pager").inner_text() == f"{count} table{'s' if count > 1 else ''} · Page 1 of {pages}"

    live = cards[-1]["slug"]  # on a short last row, the widest card
    dealt_and_shown(wall, page, live)
    well_drawn(next(c for c in page.evaluate(MEASURE) if c["slug"] == live), width, height)  # fitted as it came
    assert visible_tables(page) == [c["slug"] for c in cards]
    return cards


@pytest.fixture(scope="module")
def wall(server: LiveServer) -> LiveServer:
    tables(server, 0, 1)
    return server


CELLS = "() => [...document.querySelectorAll('#lobby-grid .table-card:not([hidden])')].map(c => c.dataset.cell)"


def test_the_wall_fills_the_tv_with_1_6_or_14_tables_and_marks_read_from_3_m(wall: LiveServer, browser: Any) -> None:
    figures: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for count, more in ((1, 0), (6, 5), (14, 8)):
        tables(wall, count - more, count)
        for size in TV_SIZES:
            with sized_page(browser, size) as page:
                figures[count, size] = wall_figures(page, wall, size, count)
    # Dealt on, the lone table has good roads by the portrait screen: shown whole, its name too.
    assert any(card["badgesShown"] for size in TV_SIZES for card in figures[1, size]), figures
    summary = {}
    for (count, size), cards in figures.items():
        cells = [r["cell"] for c in cards for r in c["roads"]]
        width, height = SIZES[size]
        area = sum(c["area"] for c in cards)
        summary[f"{count} tables {size}"] = {
            "marks_px": [round(min(cells), 1), round(max(cells), 1)],
            "cards_of_screen": round(area / (width * height), 2),
            "roads_of_cards": round(sum(r["area"] for c in cards for r in c["roads"]) / area, 2),
            "whole_shoes": sum(c["whole"] for c in cards),
        }
    (ARTIFACTS / "lobby-wall.json").write_text(json.dumps(summary, indent=1))  # the figures, for the closing note


def test_the_wall_turns_its_pages_and_keeps_a_pushed_card_on_its_page(wall: LiveServer, browser: Any) -> None:
    if len(wall.tokens) < 14:
        tables(wall, len(wall.tokens), 14)
    with sized_page(browser, "tv") as page:
        page.clock.install()
        page.goto(wall.url + "/lobby/screen/")
        page.wait_for_selector(LIVE, state="attached")
        first_page = visible_tables(page)
        first_cells = page.evaluate(CELLS)
        dealt_and_shown(wall, page, first_page[1])
        assert visible_tables(page) == first_page  # a push neither turns the page nor shows another

        page.clock.fast_forward(15_000)
        assert page.locator("#screen-pager").inner_text().endswith("Page 2 of 2")
        second_page = visible_tables(page)
        assert not set(first_page) & set(second_page) and len(first_page) + len(second_page) == 14
        screenshot(page, "lobby-wall-14-tables-tv-page-2")
        for card in page.evaluate(MEASURE):
            well_drawn(card, *SIZES["tv"])
        assert one_size(page.evaluate(MEASURE))
        # The wall keeps one scale as it turns: page 1 holds the 60-round shoe, page 2
        # short ones, and their marks are the same size.
        assert set(page.evaluate(CELLS)) == set(first_cells) and len(set(first_cells)) == 1, (
            first_cells,
            page.evaluate(CELLS),
        )
        page.clock.fast_forward(15_000)
        assert page.locator("#screen-pager").inner_text().endswith("Page 1 of 2") and visible_tables(page) == first_page


def test_two_tables_of_one_name_are_told_apart_by_their_table_id(wall: LiveServer, browser: Any) -> None:
    wall.table("wall-twin", "Baccarat 01")  # wall-00's name
    wall.post("wall-twin", "shoes")
    with sized_page(browser, "tv") as page:
        page.goto(wall.url + "/lobby/screen/")
        page.wait_for_selector(LIVE, state="attached")
        shown = page.evaluate(
            """() => [...document.querySelectorAll('#lobby-grid .table-card')]
                .filter(card => card.querySelector('h2').textContent === 'Baccarat 01')
                .map(card => card.querySelector('.table-card-head').innerText.replace(/\\s+/g, ' ').trim())"""
        )
        assert sorted(shown) == ["Baccarat 01 wall-00", "Baccarat 01 wall-twin"], shown
