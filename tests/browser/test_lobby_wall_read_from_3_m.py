"""The lobby wall read from 3 m (issue 31), with 7 tables on a TV in landscape and
portrait, in English, 繁體中文 and ไทย: every card of the page one size and its roads one
scale; a long table name whole, never under its good roads' badges (long ones too); tie
counts large and clear of their stripe."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .browsing import LiveServer, screenshot, sized_page
from .measuring import text_faults, tie_count_faults, tie_counts
from .naturals import NaturalShoe

LIVE = "#connection.connection-live"
LANGUAGES = ("en", "zh-hant", "th")
# Each table's name and winners. Squeeze Baccarat 6's end in 1 Lounge 2 Rooms (Banker), the
# longest good road's name, two ties on its first cell; Squeeze Baccarat 7's in Clap Clap
# Road and Double Jump, two ties on its last.
SQUEEZES = {"Squeeze Baccarat 6": "BTTPPBPP", "Squeeze Baccarat 7": "BBPPBBPPTT"}


@pytest.fixture(scope="module")
def seven_tables(server: LiveServer) -> LiveServer:
    rng = random.Random(7)
    for n in range(1, 8):
        slug, name = f"wall-{n}", f"Baccarat {n}"
        name = next((squeeze for squeeze in SQUEEZES if squeeze.endswith(f" {n}")), name)
        server.table(slug, name)
        server.post(slug, "shoes")
        shoe = NaturalShoe()
        winners = SQUEEZES.get(name) or "".join(rng.choices("BBBBPPPPT", k=8 + 4 * n))
        server.record(slug, [shoe.round(winner) for winner in winners])  # before the wall opens: at once
    return server


# Each card shown: its size, the size of its roads' cells, whether its name is whole and
# how many of its good roads' badges show on its shelf (whole: text_faults' cut says if not).
CARDS = """() => [...document.querySelectorAll('#lobby-grid .table-card')].filter(c => !c.hidden).map(card => {
    const box = card.getBoundingClientRect(), shelf = card.querySelector('.card-badges').getBoundingClientRect();
    const badges = [...card.querySelectorAll('.card-badges .badge')].map(b => b.getBoundingClientRect());
    return {name: card.querySelector('h2').innerText, width: box.width, height: box.height, cell: card.dataset.cell,
            goodRoads: badges.length, badgesShown: badges.filter(b => b.top < shelf.bottom && b.height).length};
})"""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_the_wall_shows_7_tables_alike_their_names_whole_and_clear_of_their_badges(
    seven_tables: LiveServer, browser: Any, size: str, language: str
) -> None:
    with sized_page(browser, size) as page:
        page.goto(f"{seven_tables.url}/lobby/screen/?lang={language}")
        page.wait_for_selector(LIVE, state="attached")
        screenshot(page, f"lobby-wall-7-tables-{size}-{language}", full_page=False)
        cards = page.evaluate(CARDS)
        assert len(cards) == 7
        first = cards[0]
        assert all(abs(c["width"] - first["width"]) < 1 and abs(c["height"] - first["height"]) < 1 for c in cards), (
            f"one size: {[(c['width'], c['height']) for c in cards]}"
        )
        assert {c["cell"] for c in cards} == {first["cell"]}, "one scale: the roads' cells alike"
        faults = text_faults(page, "#lobby-grid")
        assert faults["collisions"] == [], "no name under a badge, no words run together"
        assert faults["cut"] == [], "names whole, badges whole"
        squeezes = [c for c in cards if c["name"] in SQUEEZES]
        assert [c["badgesShown"] > 0 for c in squeezes] == [True, True], squeezes  # a good road shows
        ties = tie_counts(page, "#lobby-grid")
        assert len(ties) >= 2, "both squeezes' ties counted"
        assert [tie_count_faults(tie) for tie in ties] == [[]] * len(ties), ties
