"""Seen in a real browser at a phone's and a desktop's size: roads a player can read
(the whole shoe reachable, the newest column in view, a sign of the columns before it,
marks that fill their cells, ask previews on every road, each road in words) and the
colour-blind theme; with the figures printed and screenshots kept."""

from __future__ import annotations

import random
from typing import Any

import pytest

from roads.engine import Roads
from roads.entries import RoadRound
from tables.game.outcome import RoundOutcome
from tables.game.shoe import DealingShoe
from tests.road_marks import marks

from .browsing import SCREENS, LiveServer, page_width, screenshot, sized_page
from .measuring import FIRST_ROAD, drawn_over_marks, road_figures

LIVE = "#connection.connection-live"
SHOE_SEED = 34  # a shoe whose 73 rounds make 42 Big Road columns, with pairs and ties


def long_shoe() -> list[RoundOutcome]:
    shoe, dealt = DealingShoe.shuffled(rng=random.Random(SHOE_SEED)), []
    while not shoe.finished:
        dealt.append(shoe.deal())
    return dealt


def cards(outcome: RoundOutcome) -> dict[str, list[str]]:
    return {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}


def big_road_columns(outcomes: list[RoundOutcome]) -> int:
    roads = Roads.of(RoadRound(o.winner, o.banker_pair, o.player_pair, i) for i, o in enumerate(outcomes))
    return max(c.col for c in roads.big_road_cells) + 1


def long_table(server: LiveServer, slug: str) -> list[RoundOutcome]:
    """A table whose shoe holds all but the last round of :func:`long_shoe`."""
    dealt = long_shoe()
    server.table(slug, "Long Shoe", audience="everything")  # its odds chart drawn too
    server.post(slug, "shoes")
    server.record(slug, [cards(outcome) for outcome in dealt[:-1]])  # before its pages open: at once
    return dealt


@pytest.fixture(scope="module")
def long_shown(server: LiveServer) -> str:
    """The table of :func:`long_table` for the tests that only look at it, dealt once for
    them all (72 posts, each computing its round's odds): its slug."""
    long_table(server, "long-shown")
    return "long-shown"


def marker_size(page: Any, kind: str) -> float:
    """How wide a derived road's mark is, in its 20-unit cell (read from the page's marker)."""
    return page.evaluate(
        """kind => {
            const shape = [...document.querySelectorAll(`#mark-${kind} circle, #mark-${kind} rect, #mark-${kind} line`)]
                .find(s => getComputedStyle(s.closest("g") || s).display !== "none");
            const box = shape.getBBox();
            return Math.max(box.width, box.height);
        }""",
        kind,
    )


@pytest.mark.parametrize("size", ["phone-360", "desktop", "tv"])
def test_a_long_shoe_is_whole_in_every_road_with_its_newest_column_in_view_after_each_push(
    server: LiveServer, browser: Any, long_shown: str, size: str
) -> None:
    wide = size != "phone-360"
    # A phone's page goes on to see the shoe's last round pushed: to a table of its own.
    slug = long_shown if wide else f"long-{size}"
    dealt = long_shoe() if wide else long_table(server, slug)
    assert big_road_columns(dealt[:-1]) >= 40
    with sized_page(browser, size) as page:
        page.goto(f"{server.url}/tables/{slug}/")
        page.wait_for_selector(LIVE)
        width = page.viewport_size["width"]
        assert page.locator("#roads").evaluate("e => e.scrollWidth <= e.clientWidth")  # the roads scroll in their boxes
        figures = road_figures(page)
        # Every column of the Big Road from the shoe's first is drawn: none dropped past 30.
        big = page.locator("#road-big_road").inner_html()
        columns = {col for kind in ("ring-B", "ring-P") for col, _ in marks(big, kind)}
        assert min(columns) == 0 and max(columns) + 1 == big_road_columns(dealt[:-1])
        for name, road in figures.items():
            assert road["boxLeft"] <= road["newestX"] <= road["boxRight"], f"{name}: newest column out of view"
        assert figures["bead_plate"]["cell"] >= 14 and figures["big_road"]["cell"] >= 14
        assert drawn_over_marks(page) == [], "a scroll hint sits beside a board, never over its marks"
        earlier = page.locator("#roads .road-slot:has(#road-big_road) .earlier")
        if wide:
            # A desktop (1440) or a wide screen (1920) shows every road whole: nothing out of
            # view, no earlier columns; the page uses a wide screen's width.
            assert page.locator("main").evaluate("m => m.getBoundingClientRect().width") >= width - 60
            assert {name: f["left"] for name, f in figures.items()} == dict.fromkeys(figures, 0)
            assert page.locator("#roads .earlier:visible").count() == 0
        else:
            # A phone's Big Road comes first, with the largest cells; a road with columns out
            # of view on its left says so in its name's line, and how many.
            assert page.evaluate(FIRST_ROAD) == "road-big_road"
            assert figures["big_road"]["cell"] >= max(f["cell"] for f in figures.values()) >= 22
            assert figures["big_road"]["left"] > 0 and figures["big_road"]["earlier"]
            assert earlier.is_visible() and "earlier column" in earlier.inner_text()
        for name in ("big_eye_road", "small_road", "cockroach_road"):
            assert figures[name]["cell"] >= (10 if wide else 14)
        derived_cell = figures["small_road"]["cell"]
        mark_px = {kind: derived_cell * marker_size(page, kind) / 20 for kind in ("eye-red", "dot-red", "slash-red")}
        assert min(mark_px.values()) >= 0.7 * figures["small_road"]["cell"]
        print(
            f"\n{size}: page {page_width(page)} px wide of {width};",
            {
                n: f"cell {f['cell']:.1f} px, {f['columns']:.0f} columns, {f['box']:.0f} px box"
                for n, f in figures.items()
            },
            "derived marks px:",
            {k: round(v, 1) for k, v in mark_px.items()},
            "earlier:",
            earlier.inner_text() if earlier.is_visible() else None,
        )
        screenshot(page, f"roads-long-shoe-{size}")
        page.locator("#roads").screenshot(path=str(SCREENS / f"roads-panel-{size}.png"))
        for chart in ("chart-shares", "chart-odds"):
            page.wait_for_selector(f"[data-chart={chart}] .main-svg")
        # Plotly writes each bar's label from its height: the shares the stats show beside it.
        labels = page.locator("[data-chart=chart-shares] .bartext").all_text_contents()
        assert labels == [page.locator(f"#sp{place}").inner_text() for place in (1, 2, 3)], labels
        # The shoe-odds chart draws Banker and Player on an axis of their own, apart from the side bets'.
        axes = page.evaluate("() => document.querySelector('[data-chart=chart-odds]').data.map(t => [t.name, t.yaxis])")
        # (and any side bet that is the player's edge now, as the odds table flags it, on the side bets' axis)
        assert {name: axis for name, axis in axes if axis == "y"} == {"Banker": "y", "Player": "y"}
        assert {"Tie", "Player Pair"} <= {name for name, axis in axes if axis == "y2"}
        page.locator("#stats").screenshot(path=str(SCREENS / f"roads-stats-{size}.png"))
        page.locator("#odds").screenshot(path=str(SCREENS / f"roads-odds-{size}.png"))

        if wide:
            return
        # The reader scrolls back to the shoe's first columns; the next round brings the newest back into view.
        page.locator("#roads .road-frame:has(#road-big_road) .road-box").evaluate("b => b.scrollLeft = -b.scrollWidth")
        assert road_figures(page)["big_road"]["right"] > 0
        page.wait_for_selector("#roads .road-frame.has-later")
        assert not page.locator("#roads .road-slot:has(#road-big_road) .earlier").is_visible()
        page.locator("#roads").screenshot(path=str(SCREENS / f"roads-panel-scrolled-back-{size}.png"))
        posted = server.post(slug, "rounds", cards(dealt[-1]))["round"]
        page.wait_for_selector(f"#game-info >> text={posted['id']}", timeout=3000)
        after = road_figures(page)
        for name, road in after.items():
            assert road["boxLeft"] <= road["newestX"] <= road["boxRight"], f"{name}: newest column out after a push"
        assert after["big_road"]["right"] <= 1
        alt = page.locator("#alt-bead_plate").text_content()
        assert alt.startswith(f"Bead Plate: {len(dealt)} rounds")  # the text alternative followed the push


def shown_shape(page: Any, kind: str) -> str:
    """The tag of the shape a marker draws in the page's theme."""
    return page.evaluate(
        """kind => [...document.querySelectorAll(`#mark-${kind} circle, #mark-${kind} rect, #mark-${kind} path`)]
            .filter(s => !s.closest("g") || getComputedStyle(s.closest("g")).display !== "none")
            .map(s => s.tagName.toUpperCase()).join(",")""",
        kind,
    )


def fill(page: Any, selector: str) -> str:
    return page.evaluate("s => getComputedStyle(document.querySelector(s)).fill", selector)


@pytest.mark.parametrize("size", ["phone-360", "desktop"])
def test_the_colour_blind_theme_is_a_switch_the_browser_remembers_and_an_address_for_screens(
    server: LiveServer, browser: Any, size: str
) -> None:
    slug = f"theme-{size}"
    dealt = long_shoe()[:18]  # a short shoe: 11 Big Road columns, whole even in a phone's 24 px cells
    server.table(slug, "Theme")
    server.post(slug, "shoes")
    server.record(slug, [cards(outcome) for outcome in dealt])
    with sized_page(browser, size) as page:
        page.goto(f"{server.url}/tables/{slug}/")
        page.wait_for_selector(LIVE)
        assert page.evaluate("document.documentElement.dataset.theme") == "standard"
        # A short shoe's roads fit their boxes: nothing out of view, no sign of earlier columns.
        assert {name: (f["left"], f["earlier"]) for name, f in road_figures(page).items()} == {
            name: (0, False) for name in ("bead_plate", "big_road", "big_eye_road", "small_road", "cockroach_road")
        }
        assert shown_shape(page, "ring-P") == "CIRCLE" and fill(page, "#mark-pair-B circle") == "rgb(217, 52, 43)"
        # Every road has a name and says in words what it shows.
        for road in page.locator("#roads svg.road").all():
            assert road.get_attribute("role") == "img" and road.get_attribute("aria-label")
            description = page.locator("#" + road.get_attribute("aria-describedby")).text_content()
            assert description.startswith(road.get_attribute("aria-label") + ":")
        # The ask buttons preview the next mark on the Bead Plate and the Big Road too.
        page.click("[data-ask=B]")
        for road in ("bead_plate", "big_road", "big_eye_road"):
            assert page.locator(f"#now-{road} .ask-B").evaluate("e => getComputedStyle(e).display") != "none", road
        page.click("[data-ask=B]")
        # The shares chart's legend: one swatch per side in its colour, and the grey theoretical.
        page.wait_for_selector("[data-chart=chart-shares] .legend .traces")
        swatches = page.evaluate("""() => [...document.querySelectorAll("[data-chart=chart-shares] .legend .traces")]
            .map(t => [t.textContent, getComputedStyle(t.querySelector(".legendpoints path")).fill])""")
        assert swatches == [
            ["Banker", "rgb(217, 52, 43)"], ["Player", "rgb(31, 111, 209)"], ["Tie", "rgb(30, 158, 74)"],
            ["Theoretical", "rgb(143, 163, 154)"],
        ]  # fmt: skip

        page.click("[data-theme-switch]")
        assert page.evaluate("document.documentElement.dataset.theme") == "colorblind"
        assert page.get_attribute("[data-theme-switch]", "aria-pressed") == "true"
        shapes = {kind: shown_shape(page, kind) for kind in ("ring-B", "ring-P", "eye-red", "eye-blue", "bead-T")}
        assert shapes == {
            "ring-B": "CIRCLE", "ring-P": "RECT", "eye-red": "CIRCLE", "eye-blue": "RECT", "bead-T": "PATH"
        }  # fmt: skip
        # Pair dots keep their sides' colours (the theme's) and corners.
        assert fill(page, "#mark-pair-B circle") == "rgb(179, 80, 0)"
        assert fill(page, "#mark-pair-P rect") == "rgb(0, 114, 178)"
        page.wait_for_function(  # the charts are drawn again in the theme's colours
            """() => getComputedStyle(
                document.querySelector("[data-chart=chart-shares] .legend .traces .legendpoints path")
            ).fill === "rgb(213, 94, 0)" """
        )
        screenshot(page, f"roads-colorblind-{size}", full_page=False)
        page.locator("#roads").screenshot(path=str(SCREENS / f"roads-panel-colorblind-{size}.png"))

        page.reload()  # the browser remembers
        page.wait_for_selector(LIVE)
        assert page.evaluate("document.documentElement.dataset.theme") == "colorblind"
        page.goto(f"{server.url}/tables/{slug}/?theme=standard")  # an address overrides it, for this page
        assert page.evaluate("document.documentElement.dataset.theme") == "standard"
        page.goto(f"{server.url}/lobby/screen/?theme=colorblind")
        assert page.evaluate("document.documentElement.dataset.theme") == "colorblind"
        assert shown_shape(page, "bead-P") == "RECT"
        page.goto(f"{server.url}/lobby/screen/?theme=sepia")  # not a theme: the page keeps the remembered one
        assert page.evaluate("document.documentElement.dataset.theme") == "colorblind"


SAID_FIRST = {"en": ("Red: ", "Blue: "), "th": ("แดง: ", "น้ำเงิน: "), "zh-hant": ("紅：", "藍：")}


def tap_mark(page: Any, road: str, col: int, row: int, size: str) -> None:
    """Tap (on a phone) or hover (on a desktop) the mark in a cell of a road."""
    box = page.locator(f"#roads .road-box:has(#road-{road})")
    box.scroll_into_view_if_needed()
    x, y = page.evaluate(
        """([road, col, row]) => { const svg = document.getElementById('road-' + road);
            const box = svg.getBoundingClientRect(), view = svg.viewBox.baseVal, k = box.height / view.height;
            return [box.left + ((col + .5) * 20 - view.x) * k, box.top + (row + .5) * 20 * k]; }""",
        [road, col, row],
    )
    if size == "phone-360":
        page.touchscreen.tap(x, y)
    else:
        page.mouse.move(x, y)


@pytest.mark.parametrize(("size", "language"), [("desktop", "en"), ("phone-360", "th"), ("desktop", "zh-hant")])
def test_a_derived_mark_tapped_or_hovered_outlines_the_big_road_cells_it_compared_and_says_why(
    server: LiveServer, browser: Any, long_shown: str, size: str, language: str
) -> None:
    slug = long_shown
    with sized_page(browser, size) as page:
        page.goto(f"{server.url}/tables/{slug}/?lang={language}")
        page.wait_for_selector(LIVE)
        small = page.locator("#road-small_road").inner_html()
        newest = max(marks(small, "dot-red") + marks(small, "dot-blue"))  # in view on every screen
        if size == "phone-360":  # the road low on the screen, where the sheet rises
            page.evaluate("document.getElementById('road-small_road').scrollIntoView({block: 'end'})")
        tap_mark(page, "small_road", *newest, size)
        why = page.wait_for_selector("#road-tip:not([hidden]) .tip-why")
        compared = [tuple(map(int, at.split(","))) for at in why.get_attribute("data-compared").split()]
        outlined = page.evaluate(
            """() => [...document.querySelectorAll('#road-big_road rect.compared')]
                .map(r => [+r.getAttribute('x') / 20, +r.getAttribute('y') / 20])"""
        )
        screenshot(page, f"explained-{size}-{language}", full_page=False)
        assert [tuple(cell) for cell in outlined] == compared and len(compared) >= 2
        words = why.inner_text()
        assert words.startswith(SAID_FIRST[language]), words  # "Red:" or "Blue:", in the page's language
        tip = page.locator("#road-tip").bounding_box()
        viewport = page.viewport_size
        assert tip["x"] >= 0 and tip["x"] + tip["width"] <= viewport["width"], "the explanation stays on the screen"
        if size == "phone-360":  # a bottom sheet across the screen
            assert tip["width"] >= 0.9 * viewport["width"] and tip["y"] + tip["height"] >= viewport["height"] - 12
            mark_bottom = page.evaluate(
                """([col, row]) => { const svg = document.getElementById('road-small_road');
                    const box = svg.getBoundingClientRect(), k = box.height / svg.viewBox.baseVal.height;
                    return box.top + (row + 1) * 20 * k; }""",
                list(newest),
            )
            assert mark_bottom <= tip["y"], "the sheet leaves the tapped mark in sight"
