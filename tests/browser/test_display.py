"""Seen in a real browser: the display beside a table, on a TV in landscape and portrait,
read from 3 m in English, 繁體中文 and ไทย (issue 31)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tables.game.outcome import RoundOutcome
from tables.game.shoe import DealingShoe

from .browsing import SIZES, LiveServer, off_screen, page_width, screenshot, serving, sized_page, table_with_limits
from .measuring import (
    MIN_RING_SHOWN,
    WELL_SET,
    display_road_faults,
    display_roads,
    text_faults,
    theme_colours,
    tie_count_faults,
    tie_counts,
    tie_rings,
)
from .naturals import LONG_STREAKS, NaturalShoe

LIVE = "#connection.connection-live"
ROADS = ("bead_plate", "big_road", "big_eye_road", "small_road", "cockroach_road")


class PromptServer(LiveServer):
    """Pushes every round as it comes (no push interval), as a busy table would over a
    few seconds: what a display takes over days, in a minute."""

    def env(self) -> dict[str, str]:
        return {**super().env(), "PUSH_INTERVAL": "0"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serving(PromptServer(tmp_path_factory.mktemp("display")))


class Dealer:
    """Deals real shoes (the rules' own dealing) into a table through the API."""

    def __init__(self, server: LiveServer, slug: str, seed: int) -> None:
        self.server, self.slug, self.rng = server, slug, random.Random(seed)
        self.shoe: DealingShoe | None = None
        self.shoes = 0

    def new_shoe(self) -> None:
        self.shoe = DealingShoe.shuffled(rng=self.rng)
        self.server.post(self.slug, "shoes")
        self.shoes += 1

    def round(self) -> dict[str, Any]:
        """Deal and post the next round, starting a new shoe when one is due."""
        if self.shoe is None or self.shoe.finished:
            self.new_shoe()
        assert self.shoe is not None
        return self.server.post(self.slug, "rounds", cards(self.shoe.deal()))["round"]

    def record(self, rounds: int | None = None) -> None:
        """Deal the next ``rounds`` rounds of the shoe (None: all it has left), starting a
        shoe when one is due, and record them at once (:meth:`LiveServer.record`): the
        table's history before its display opens."""
        if self.shoe is None or self.shoe.finished:
            self.new_shoe()
        assert self.shoe is not None
        dealt: list[dict[str, list[str]]] = []
        while not self.shoe.finished and (rounds is None or len(dealt) < rounds):
            dealt.append(cards(self.shoe.deal()))
        self.server.record(self.slug, dealt)


def cards(outcome: RoundOutcome) -> dict[str, list[str]]:
    """A round's cards, as the API takes them."""
    return {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}


def shows_round(page: Any, number: int) -> None:
    """Wait until the display shows the shoe's round ``number``."""
    page.wait_for_function(
        "n => +document.getElementById('game-info').dataset.version.split(':')[1] === n", arg=number, timeout=5000
    )


def announced(page: Any) -> str | None:
    """The winner the display is announcing ("B", "P" or "T"), if it is."""
    return page.evaluate("document.body.dataset.announcing ?? null")


def count(page: Any, label: str) -> str:
    """The number the display's counts show under ``label`` ("Banker", "Rounds", ...)."""
    return page.locator("#stats dt", has_text=label).locator("xpath=following-sibling::dd[1]").inner_text()


def road_cells(page: Any) -> dict[str, float]:
    """Each road's cell size on screen (CSS px): its board's height over its six rows."""
    return page.evaluate(
        """roads => Object.fromEntries(roads.map(name => {
            const box = document.getElementById('road-' + name).getBoundingClientRect();
            return [name, box.height / 6];
        }))""",
        list(ROADS),
    )


def under_the_live_mark(page: Any) -> list[str]:
    """What the connection's mark (fixed in a corner) lies over: no road, count or result."""
    return page.evaluate(
        """() => {
            const mark = document.getElementById('connection').getBoundingClientRect();
            const shown = [...document.querySelectorAll('#display svg.road, #stats, #last-round, #game-info')];
            return shown.filter(el => { const r = el.getBoundingClientRect();
                return r.left < mark.right && mark.left < r.right && r.top < mark.bottom && mark.top < r.bottom;
            }).map(el => el.id || el.className.baseVal || el.className);
        }"""
    )


HISTORY = 66  # rounds, late in a shoe: more Big Road columns than a screen holds


@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_the_display_fills_the_tv_without_scrolling_updates_live_and_announces_each_round(
    server: LiveServer, browser: Any, size: str
) -> None:
    slug = f"display-{size}"
    table_with_limits(server, slug, "Baccarat 8")
    dealer = Dealer(server, slug, seed=18)
    dealer.record(HISTORY)
    width, height = SIZES[size]
    with sized_page(browser, size) as page:
        page.clock.install()
        page.goto(f"{server.url}/tables/{slug}/display/")
        page.wait_for_selector(LIVE)
        screenshot(page, f"display-{size}", full_page=False)
        assert page.locator("button:visible, select:visible, input:visible, a:visible").count() == 0  # no controls
        assert page_width(page) <= width
        assert page.evaluate("document.documentElement.scrollHeight") <= height  # nothing to scroll
        assert off_screen(page) == []
        assert under_the_live_mark(page) == [], "the connection's mark hides nothing"
        cells = road_cells(page)
        print(f"\n{size}: cells { ({name: round(px, 1) for name, px in cells.items()}) }")
        assert display_road_faults(page, tv=True) == [], "every road's newest column, the earlier ones counted"
        assert announced(page) is None  # the round it opened on is no news

        new = dealer.round()
        shows_round(page, new["number"])
        assert announced(page) == new["winner"]
        verdict = {"B": "Banker wins", "P": "Player wins", "T": "Tie"}[new["winner"]]
        assert page.locator("#last-round .verdict").inner_text() == verdict
        assert count(page, "Rounds") == str(HISTORY + 1)
        assert off_screen(page) == [] and display_road_faults(page, tv=True) == []
        screenshot(page, f"display-{size}-announced", full_page=False)
        page.clock.fast_forward(6000)
        page.wait_for_function("() => document.body.dataset.announcing === undefined", timeout=2000)
        screenshot(page, f"display-{size}-after", full_page=False)


def test_the_display_says_it_is_reconnecting_and_resyncs_after_a_network_loss(server: LiveServer, browser: Any) -> None:
    slug = "display-network"
    table_with_limits(server, slug, "Baccarat 9")
    dealer = Dealer(server, slug, seed=9)
    dealer.record(3)
    with sized_page(browser, "tv") as page:
        page.goto(f"{server.url}/tables/{slug}/display/")
        page.wait_for_selector(LIVE)

        server.stop()  # the network (or the server) goes away; the display says so, large
        offline = page.wait_for_selector("#connection.connection-offline", timeout=5000)
        assert offline.inner_text() == "reconnecting…" and offline.bounding_box()["height"] >= 60
        screenshot(page, "display-tv-reconnecting", full_page=False)
        server.start()
        missed = [dealer.round() for _ in range(3)]

        page.wait_for_selector(LIVE, timeout=15000)
        shows_round(page, missed[-1]["number"])
        assert count(page, "Rounds") == "6"
        assert off_screen(page) == []


ROUNDS_FOR_DAYS = 500  # a busy table's day or so, through several shoes
HEAP_GROWTH_LIMIT = 1024 * 1024  # bytes of JS heap a display may gain over them (after GC)


def test_the_display_runs_for_days_its_memory_bounded_over_500_rounds_and_several_shoes(
    server: LiveServer, browser: Any
) -> None:
    slug = "display-days"
    table_with_limits(server, slug, "Baccarat 10")
    dealer = Dealer(server, slug, seed=500)
    with sized_page(browser, "tv") as page:
        page.goto(f"{server.url}/tables/{slug}/display/")
        page.wait_for_selector(LIVE)
        page.evaluate("window.pushes = 0; document.addEventListener('htmx:wsAfterMessage', () => window.pushes++)")
        cdp = page.context.new_cdp_session(page)

        def memory() -> dict[str, int]:
            """What the page holds once garbage is collected: JS heap bytes, DOM nodes, listeners."""
            cdp.send("HeapProfiler.collectGarbage")
            heap, dom = cdp.send("Runtime.getHeapUsage"), cdp.send("Memory.getDOMCounters")
            return {"heap": int(heap["usedSize"]), "nodes": dom["nodes"], "listeners": dom["jsEventListeners"]}

        posted = 0

        def deal_into_a_new_shoe() -> None:
            """Deal rounds as a table does (the display takes the pushes as they come) until
            the first round of a new shoe shows."""
            nonlocal posted
            shoes = dealer.shoes
            while True:
                new = dealer.round()
                posted += 1
                if dealer.shoes > max(shoes, 1) and new["number"] == 1:
                    shows = f"{dealer.shoes}:1:"
                    page.wait_for_function(  # a function: an expression's polling is an eval, which the CSP refuses
                        "shows => document.getElementById('game-info').dataset.version.startsWith(shows)", arg=shows
                    )
                    return

        deal_into_a_new_shoe()  # a shoe and a round: the display has drawn every kind of push
        before = memory()
        shoes_before = dealer.shoes
        while posted < ROUNDS_FOR_DAYS:
            deal_into_a_new_shoe()
        after = memory()
        pushes = page.evaluate("window.pushes")
        print(f"\n{posted} rounds, {dealer.shoes - shoes_before} shoes, {pushes} pushes: {before} -> {after}")
        screenshot(page, "display-tv-after-500-rounds", full_page=False)

        assert dealer.shoes - shoes_before >= 5 and pushes >= 100
        assert after["heap"] - before["heap"] < HEAP_GROWTH_LIMIT, (before, after)
        assert after["listeners"] <= before["listeners"], (before, after)
        assert after["nodes"] <= before["nodes"] * 1.1, (before, after)  # each shoe's marks go with it
        assert off_screen(page) == []


@contextmanager
def showing_three_cards_each(server: LiveServer, browser: Any, size: str, name: str) -> Iterator[tuple[Any, int]]:
    """A display of a new table ``name`` at ``size``, open on 50 rounds or so of a shoe,
    then pushed the next round where each hand takes a third card (the widest last round
    a display shows): the page, and that round's number once the page shows it."""
    slug = f"display-{size}"
    table_with_limits(server, slug, name)
    dealer = Dealer(server, slug, seed=18)
    dealer.new_shoe()
    assert dealer.shoe is not None
    dealt = [cards(dealer.shoe.deal()) for _ in range(50)]
    while len((widest := dealer.shoe.deal()).player_cards) != 3 or len(widest.banker_cards) != 3:
        dealt.append(cards(widest))
    server.record(slug, dealt)
    with sized_page(browser, size) as page:
        page.goto(f"{server.url}/tables/{slug}/display/")
        page.wait_for_selector(LIVE)
        number = server.post(slug, "rounds", cards(widest))["round"]["number"]
        shows_round(page, number)
        yield page, number


def clipped_in_last_round(page: Any) -> list[str]:
    """What of the last round's panel its box cuts off: a hand, a card or the verdict."""
    return page.evaluate(
        """() => {
            const panel = document.getElementById('last-round').getBoundingClientRect();
            return [...document.querySelectorAll('#last-round .hand, #last-round .card, #last-round .verdict')]
                .filter(el => { const r = el.getBoundingClientRect();
                    return r.left < panel.left - 0.5 || r.right > panel.right + 0.5
                        || r.top < panel.top - 0.5 || r.bottom > panel.bottom + 0.5; })
                .map(el => el.className + ' ' + el.textContent.trim());
        }"""
    )


def stacked_faults(page: Any) -> list[str]:
    """On a phone the display is one column: each part below the one before, none wider
    than the screen, none overlapping another."""
    return page.evaluate(
        """() => {
            const parts = ['#game-info', '#last-round', '#stats',
                           ...[...document.querySelectorAll('#display svg.road')].map(s => '#' + s.id)];
            const boxes = parts.map(s => [s, document.querySelector(s).getBoundingClientRect()])
                .sort((a, b) => a[1].top - b[1].top);
            const faults = [];
            boxes.forEach(([s, r], i) => {
                if (r.width === 0 || r.height === 0) faults.push(s + ' is empty');
                if (r.left < -0.5 || r.right > innerWidth + 0.5) faults.push(s + ' is wider than the screen');
                const next = boxes[i + 1];
                if (next && next[1].top < r.bottom - 0.5) faults.push(s + ' overlaps ' + next[0]);
            });
            return faults;
        }"""
    )


def test_on_a_desktop_the_display_fits_the_window_hands_of_three_cards_whole(server: LiveServer, browser: Any) -> None:
    width, height = SIZES["desktop"]
    with showing_three_cards_each(server, browser, "desktop", "Baccarat 10") as (page, _number):
        screenshot(page, "display-desktop", full_page=False)
        assert page_width(page) <= width
        assert page.evaluate("document.documentElement.scrollHeight") <= height  # nothing to scroll
        assert off_screen(page) == [], "the counts keep to their column"
        assert page.locator("#last-round .card.third").count() == 2
        assert clipped_in_last_round(page) == [], "both hands side by side, the verdict below them"


def test_on_a_phone_the_display_is_one_column_that_scrolls_every_part_whole(server: LiveServer, browser: Any) -> None:
    width, _height = SIZES["phone-360"]
    with showing_three_cards_each(server, browser, "phone-360", "Baccarat 11") as (page, number):
        screenshot(page, "display-phone-360", full_page=True)
        assert page_width(page) <= width
        assert stacked_faults(page) == []
        assert clipped_in_last_round(page) == []
        assert count(page, "Rounds") == str(number)
        counts = "[...document.querySelectorAll('#stats dd:not(.pct)')]"
        sizes = page.evaluate(f"{counts}.map(d => parseFloat(getComputedStyle(d).fontSize))")
        assert min(sizes) >= 24, "the counts read at arm's length"
        assert min(road_cells(page).values()) >= 5


def road_fill(page: Any) -> dict[str, float]:
    """How much of its box each road's board fills across (1: all of it)."""
    return page.evaluate(
        """roads => Object.fromEntries(roads.map(name => {
            const svg = document.getElementById('road-' + name);
            return [name, svg.getBoundingClientRect().width / svg.parentElement.getBoundingClientRect().width];
        }))""",
        list(ROADS),
    )


@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_early_in_a_shoe_every_road_fills_its_box_from_the_left(server: LiveServer, browser: Any, size: str) -> None:
    slug = f"display-early-{size}"
    table_with_limits(server, slug, "Baccarat 9")
    dealer = Dealer(server, slug, seed=9)
    dealer.record(8)
    with sized_page(browser, size) as page:
        page.goto(f"{server.url}/tables/{slug}/display/")
        page.wait_for_selector(LIVE)
        screenshot(page, f"display-early-{size}", full_page=False)
        fill = road_fill(page)
        assert min(fill.values()) >= 0.9, fill  # the grid runs on past the marks, as on a casino's board
        first_bead = page.evaluate("document.getElementById('road-bead_plate').viewBox.baseVal.x")
        assert first_bead == 0, "the shoe's first column at the left"
        assert page.locator(".road-slot:has(svg.road-big_road) .earlier").is_hidden()


def deal_naturals(server: LiveServer, slug: str, shoe: NaturalShoe, winners: str) -> None:
    for winner in winners:
        server.post(slug, "rounds", shoe.round(winner))


def record_naturals(server: LiveServer, slug: str, shoe: NaturalShoe, winners: str) -> None:
    """:func:`deal_naturals` at once, before the table's pages open (:meth:`LiveServer.record`)."""
    server.record(slug, [shoe.round(winner) for winner in winners])


def banker_counts(page: Any) -> list[str]:
    """The colours of the Banker's counts a screen shows (the display's stats, the wall's cards)."""
    return page.evaluate(
        "[...document.querySelectorAll('.stat-B dd:first-of-type, .counts .c-B')].map(e => getComputedStyle(e).color)"
    )


STANDARD = {"theme": "standard", "banker": "#d9342b", "player": "#1f6fd1", "tie": "#15803d"}
COLOUR_BLIND = {"theme": "colorblind", "banker": "#b35000", "player": "#0072b2", "tie": "#007a5e"}  # Okabe-Ito


@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_the_display_and_the_wall_take_the_colour_blind_theme_from_their_address(
    server: LiveServer, browser: Any, size: str
) -> None:
    slug = f"display-theme-{size}"
    table_with_limits(server, slug, "Baccarat 11")
    server.post(slug, "shoes")
    record_naturals(server, slug, NaturalShoe(), "BPTBBP")
    with sized_page(browser, size) as page:
        for screen, path in (("display", f"/tables/{slug}/display/"), ("wall", "/lobby/screen/")):
            page.goto(f"{server.url}{path}?theme=colorblind")  # a TV has no header to hold the switch
            page.wait_for_selector(LIVE, state="attached")
            screenshot(page, f"{screen}-{size}-colorblind", full_page=False)
            assert theme_colours(page) == COLOUR_BLIND, screen
            square = page.evaluate("getComputedStyle(document.querySelector('#mark-bead-P .shape-cb')).display")
            assert square != "none", f"the {screen}'s Player beads are square"
            assert set(banker_counts(page)) == {"rgb(240, 160, 80)"}, f"the {screen}'s Banker counts in its orange"
            page.goto(f"{server.url}{path}?theme=standard")
            page.wait_for_selector(LIVE, state="attached")
            assert theme_colours(page) == STANDARD, screen
            assert set(banker_counts(page)) == {"rgb(255, 107, 98)"}, screen


LANGUAGES = ("en", "zh-hant", "th")
MIN_ANNOUNCED = 56  # CSS px: the announced result's letters, read from across the room


def under_the_announcement(page: Any) -> list[str]:
    """What the announced result's box lies over: none of the roads, counts, facts or
    cards the round it announces changed."""
    return page.evaluate(
        """() => {
            const a = document.querySelector('#last-round .verdict').getBoundingClientRect();
            const shown = [...document.querySelectorAll('#display svg.road, #stats, #game-info, #last-round .hand')];
            return shown.filter(el => { const r = el.getBoundingClientRect();
                return r.left < a.right && a.left < r.right && r.top < a.bottom && a.top < r.bottom;
            }).map(el => el.id || el.className.baseVal || el.className);
        }"""
    )


def times_shown(page: Any, text: str) -> int:
    """How many texts on the screen read ``text``."""
    return page.evaluate(
        """text => { const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); let n = 0;
            for (let t = walker.nextNode(); t; t = walker.nextNode()) {
                const range = document.createRange(); range.selectNodeContents(t);
                if (t.textContent.trim() === text && range.getClientRects().length) n++;
            }
            return n; }""",
        text,
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_the_display_reads_from_3_m_tie_counts_large_words_apart_and_a_result_announced_beside_its_roads(
    server: LiveServer, browser: Any, size: str, language: str
) -> None:
    slug = f"display-3m-{size}-{language}"
    table_with_limits(server, slug, "Squeeze Baccarat 6")
    server.post(slug, "shoes")
    shoe = NaturalShoe()
    record_naturals(server, slug, shoe, "".join(random.Random(31).choices("BBBBPPPPT", k=30)) + "BTT")
    with sized_page(browser, size) as page:
        page.clock.install()
        page.goto(f"{server.url}/tables/{slug}/display/?lang={language}")
        page.wait_for_selector(LIVE)
        screenshot(page, f"display-3m-{size}-{language}", full_page=False)
        ties = tie_counts(page, "#display")
        assert [tie.count for tie in ties][-1:] == ["2"], "the newest Big Road cell counts its two ties"
        assert [tie_count_faults(tie) for tie in ties] == [[]] * len(ties), ties
        rings = tie_rings(page, "#display")  # the count in its cell's corner, the ring in sight
        assert rings and [(r.covers_middle, r.ring_shown >= MIN_RING_SHOWN) for r in rings] == [(False, True)] * len(
            rings
        )
        assert text_faults(page, "body") == WELL_SET

        deal_naturals(server, slug, shoe, "B")  # two cards a hand: "BANKER" beside a one-digit score
        page.wait_for_function("() => document.body.dataset.announcing === 'B'", timeout=5000)
        screenshot(page, f"display-3m-{size}-{language}-announced", full_page=False)
        verdict = page.locator("#last-round .verdict")
        assert float(verdict.evaluate("v => parseFloat(getComputedStyle(v).fontSize)")) >= MIN_ANNOUNCED
        assert under_the_announcement(page) == [], "the announcement covers none of the round it announces"
        assert times_shown(page, verdict.inner_text()) == 1, "the result said once, by its own panel"
        assert text_faults(page, "body") == WELL_SET
        assert off_screen(page) == [] and under_the_live_mark(page) == []

        page.clock.fast_forward(6000)
        page.wait_for_function("() => document.body.dataset.announcing === undefined", timeout=2000)
        assert text_faults(page, "body") == WELL_SET


SHOES = {
    "an 80-round shoe": None,  # the rules' own dealing, to the cut card
    "a long-streak shoe": LONG_STREAKS,
}


@pytest.fixture(scope="module")
def whole_shoes(server: LiveServer) -> dict[str, str]:
    """A table of each of :data:`SHOES`, dealt once for both TVs: the test only looks at
    its display (dealing a shoe is 70-80 posts, each computing the round's odds)."""
    slugs = {}
    for shoe, winners in SHOES.items():
        slug = slugs[shoe] = f"display-whole-{len(shoe)}"
        table_with_limits(server, slug, "Baccarat 12")
        if winners is None:
            Dealer(server, slug, seed=80).record()
        else:
            server.post(slug, "shoes")
            record_naturals(server, slug, NaturalShoe(), winners)
    return slugs


@pytest.mark.parametrize("shoe", list(SHOES))
@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_the_display_shows_each_roads_newest_columns_saying_how_many_are_off_screen_in_cells_read_from_3_m(
    server: LiveServer, browser: Any, whole_shoes: dict[str, str], size: str, shoe: str
) -> None:
    slug, winners = whole_shoes[shoe], SHOES[shoe]
    language = {"tv": "zh-hant", "tv-portrait": "th"}[size] if winners else "en"
    with sized_page(browser, size) as page:
        page.goto(f"{server.url}/tables/{slug}/display/?lang={language}")
        page.wait_for_selector(LIVE)
        screenshot(page, f"display-whole-{size}-{slug.rsplit('-', 1)[1]}", full_page=False)
        views = display_roads(page)
        print(
            f"\n{size}, {shoe}: "
            + ", ".join(f"{n} {v['newest'] + 1:.0f} cols {v['cell']:.1f}px" for n, v in views.items())
        )
        assert views["big_road"]["newest"] >= (20 if winners is None else 30), "a shoe that runs long"
        assert display_road_faults(page, tv=True) == []
        derived = [views[name]["cell"] for name in ("big_eye_road", "small_road", "cockroach_road")]
        assert max(derived) - min(derived) < 0.5, "the three derived roads in one cell size"
        assert max(derived) <= views["big_road"]["cell"] + 0.5, "no derived road larger than the Big Road"
        assert views["big_road"]["cell"] >= max(view["cell"] for view in views.values()), "the Big Road leads"
        assert off_screen(page) == [] and text_faults(page, "body") == WELL_SET
