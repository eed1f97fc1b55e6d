"""The lobby wall as it turns its pages (issue 31, the screen review): every page's roads
at one scale, whichever page has the longer names and badges; two tables of one name
told apart on their cards; a Big Road's tie count clear of the ring it counts on; and
the shoe odds chart drawing every bet its table flags as the player's edge."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from .browsing import LiveServer, screenshot, sized_page
from .measuring import MIN_RING_SHOWN, WELL_SET, text_faults, tie_count_faults, tie_counts, tie_rings
from .naturals import NaturalShoe

LIVE = "#connection.connection-live"
TURN = 15_000  # ms a page of the wall shows
# Sixteen tables, two pages of 8. Page 1 holds a long name with the longest good road's
# badge, which goes under the names (heads-stacked), and two ties on a Banker's ring;
# page 2 short names and badges. All shoes short, so no shoe's length sets the scale.
CROWDED, TWIN = "Baccarat 02 Salon Privé", "Baccarat 01"


@pytest.fixture(scope="module")
def sixteen_tables(server: LiveServer) -> LiveServer:
    rng = random.Random(31)
    for n in range(1, 17):
        slug, name = f"turn-{n:02d}", f"Baccarat {n:02d}"
        if n == 2:
            name = CROWDED
        elif n == 16:
            name = TWIN  # sorted beside turn-01, on page 1
        server.table(slug, name, audience="everything" if n == 5 else "full_shoe")  # turn-05's odds all shown
        server.post(slug, "shoes")
        shoe = NaturalShoe()
        winners = "BTTPPBPP" if n == 2 else "".join(rng.choices("BBBPPPT", k=4 + n % 5))
        server.record(slug, [shoe.round(winner) for winner in winners])  # before the wall opens: at once
    return server


# The cells of every road on the shown cards, as drawn: the viewBox scaled into the
# SVG's box.
CELLS = """() => [...document.querySelectorAll('#lobby-grid .table-card:not([hidden]) svg.road')].map(svg => {
    const r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
    return Math.round(2000 * Math.min(r.width / vb.width, r.height / vb.height)) / 100;
})"""


@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_every_page_of_the_wall_draws_its_roads_at_one_scale(
    sixteen_tables: LiveServer, browser: Any, size: str
) -> None:
    with sized_page(browser, size) as page:
        page.clock.install()
        page.goto(f"{sixteen_tables.url}/lobby/screen/")
        page.wait_for_selector(LIVE, state="attached")
        cells = {}
        for turn in (1, 2, 1):
            pager = page.locator("#screen-pager")
            assert pager.inner_text().endswith(f"Page {turn} of 2")
            screenshot(page, f"lobby-wall-turns-{size}-page-{turn}", full_page=False)
            cells.setdefault(turn, set()).update(page.evaluate(CELLS))
            page.clock.fast_forward(TURN)
        assert len(cells[1] | cells[2]) == 1, f"one scale on every page: {cells}"
        assert min(cells[1]) >= 24 - 0.01


@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_two_tables_of_one_name_differ_in_what_their_cards_say(
    sixteen_tables: LiveServer, browser: Any, size: str
) -> None:
    with sized_page(browser, size) as page:
        page.goto(f"{sixteen_tables.url}/lobby/screen/")
        page.wait_for_selector(LIVE, state="attached")
        heads = page.evaluate(
            """(name) => [...document.querySelectorAll('#lobby-grid .table-card:not([hidden])')]
                .filter(card => card.querySelector('h2').textContent === name).map(card => {
                    const h2 = card.querySelector('h2');
                    return {text: card.querySelector('.table-card-head').innerText.trim(),
                            whole: h2.scrollWidth <= h2.clientWidth + 1, first: card.innerText.trim().startsWith(name)};
                })""",
            TWIN,
        )
        assert len(heads) == 2 and heads[0]["text"] != heads[1]["text"], heads
        assert all(h["whole"] and h["first"] for h in heads), "the name first and whole"
        alone = page.locator("#table-turn-03 .table-card-head").inner_text().strip()
        assert alone == "Baccarat 03", "a table whose name is its own shows it alone"
        assert text_faults(page, "#lobby-grid") == WELL_SET


@pytest.mark.parametrize("theme", ["standard", "colorblind"])
def test_a_tie_count_leaves_the_ring_it_counts_on_in_sight(
    sixteen_tables: LiveServer, browser: Any, theme: str
) -> None:
    with sized_page(browser, "tv") as page:
        page.goto(f"{sixteen_tables.url}/lobby/screen/?theme={theme}")
        page.wait_for_selector(LIVE, state="attached")
        rings = tie_rings(page, "#table-turn-02")
        assert [ring.count for ring in rings] == ["2"], rings  # B, then two ties on its ring
        assert [(ring.covers_middle, ring.ring_shown >= MIN_RING_SHOWN) for ring in rings] == [(False, True)], rings
        ties = tie_counts(page, "#table-turn-02")
        assert [tie_count_faults(tie) for tie in ties] == [[]], ties  # still large, green, on its halo


# A stored round's odds with Lucky Six's return above zero, as the background job
# stores them (tables.background.odds): the odds table flags it as the player's edge.
EDGE = """
from tables.game.bets import BetType
from tables.models import Round
round_ = Round.objects.filter(shoe__table__slug="turn-05").order_by("-pk").first()
returns = {bet.value: -0.02 for bet in BetType} | {"lucky_six": 0.021, "player_bonus": 0.004}
Round.objects.filter(pk=round_.pk).update(odds={"cards": 400, "returns": returns, "no_commission_banker": -0.01})
"""


def test_the_odds_chart_draws_every_bet_its_table_flags_as_the_players_edge(
    sixteen_tables: LiveServer, browser: Any
) -> None:
    sixteen_tables.manage("shell", "-c", EDGE)
    with sized_page(browser, "desktop") as page:
        page.goto(f"{sixteen_tables.url}/tables/turn-05/")
        page.wait_for_selector("#odds .chart .legendtext")
        flagged = page.eval_on_selector_all(
            "#odds tr.edge-positive td:first-child",
            "tds => tds.map(td => td.firstChild.textContent.trim())",
        )
        lines = page.evaluate(
            """() => document.querySelector('#odds .chart').data
                .map(t => ({name: t.name, look: [t.line.color, t.line.dash]}))"""
        )
        legend = page.eval_on_selector_all("#odds .chart .legendtext", "ts => ts.map(t => t.textContent)")
        assert sorted(flagged) == ["Lucky Six", "Player Bonus"], flagged
        assert set(flagged) <= set(legend) and set(flagged) <= {line["name"] for line in lines}, (flagged, legend)
        looks = [json.dumps(line["look"]) for line in lines]
        assert len(set(looks)) == len(looks), f"each line its own look, as its legend entry shows it: {lines}"
