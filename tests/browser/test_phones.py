"""Seen in a real browser on two phones, a desktop and the TVs: every page fits its screen (no
sideways scroll of the page), the header stays on one line, what a thumb taps is at
least 44 px, and the Bead Plate and Big Road cells stay big enough to read.

One test visits every page at every size, keeps a screenshot of each, and reports all
that is wrong at once, with the figures measured."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

from tables.game.shoe import DealingShoe
from tables.pages.svg import CELL
from tests.road_marks import marks

from .browsing import LiveServer, page_width, screenshot, sized_page

PHONES = ("phone-360", "phone-390")
SIZES_SEEN = (*PHONES, "desktop", "tv", "tv-portrait")
ROUNDS = 60
TAP = 44  # px: the smallest target a thumb hits reliably (WCAG 2.5.5)
ROAD_CELL = 14  # CSS px: the smallest Bead Plate / Big Road cell a player reads on a phone
PAD = 3  # px: a chart legend's padding round its items
LEGEND_ROW = 22  # px a legend row takes at the charts' 12 px font (static/js/charts.js)
ONE_LINE = 64  # px: a header taller than this has wrapped onto a second line

# What a thumb taps: links and controls, except a link inside a sentence (it is text).
TAP_TARGETS = """() => [...document.querySelectorAll(
        "a[href], button, select, input:not([type=hidden]):not([type=checkbox]), label:has(> input[type=checkbox])")]
    .filter(el => el.offsetParent !== null && !el.closest("p, .road-defs, [hidden]"))
    .map(el => { const r = el.getBoundingClientRect();
                 return {what: el.outerHTML.slice(0, 70), width: r.width, height: r.height}; })"""
# The height of one road cell in CSS px: a road is six rows high.
CELL_SIZE = "s => document.querySelector(s).getBoundingClientRect().height / 6"
# Each chart's legend box and plot area, to tell a legend that covers the lines or bars;
# whether the legend scrolls (plotly's own scrollbar: entries out of sight); the x axis's
# title and tick labels, to tell a title drawn over the labels.
LEGENDS = """() => [...document.querySelectorAll("[data-chart]")].map(chart => {
    const box = el => { const found = chart.querySelector(el); if (!found) return null;
                        const r = found.getBoundingClientRect();
                        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
    const scrollbar = chart.querySelector("g.legend rect.scrollbar");
    return {chart: chart.dataset.chart, legend: box("g.legend"), plot: box(".nsewdrag"),
            scrolls: !!scrollbar && +scrollbar.getAttribute("height") > 0,
            title: box("g.g-xtitle"), ticks: box("g.xaxislayer-above")}; })"""
# Playing cards whose rank and suit do not fit inside the card ("10♠" is the widest).
CARDS_OVERFLOWING = (
    "() => [...document.querySelectorAll('.card')].filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.title)"
)
# Every chart drawn: with its legend, or as small multiples (one titled chart a line, on a
# phone), which need none.
DRAWN = """() => [...document.querySelectorAll('[data-chart]')].every(chart =>
    chart.querySelector('g.legend') || (chart.querySelector('.main-svg') && chart.layout && chart.layout.grid))"""
# How many small charts each chart is drawn as (1: one chart).
SUBPLOTS = """() => [...document.querySelectorAll('[data-chart]')]
    .map(c => c.querySelectorAll('g.cartesianlayer > g.subplot').length)"""
HEADER = """() => { const bar = document.querySelector('.topbar').getBoundingClientRect();
    const tops = [...document.querySelectorAll('.topbar .brand, .topbar nav a')]
        .filter(el => el.offsetParent !== null).map(el => Math.round(el.getBoundingClientRect().top));
    return {height: bar.height, rows: new Set(tops.map(t => Math.round(t / 8))).size}; }"""


def deal_shoe(server: LiveServer, slug: str, rounds: int) -> None:
    """Post ``rounds`` legal rounds dealt from a seeded shoe: ties, pairs, third cards."""
    server.table(slug, "Baccarat Phone")
    server.post(slug, "shoes")
    shoe, dealt = DealingShoe.shuffled(rng=random.Random(18)), []
    for _ in range(rounds):
        outcome = shoe.deal()
        dealt.append(
            {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        )
    server.record(slug, dealt)  # before the pages open: at once


def log_in(server: LiveServer, page: Any, username: str, password: str, size: str) -> None:
    page.goto(server.url + "/admin/login/?next=/review/")
    screenshot(page, f"phones-admin-login-{size}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    page.wait_for_selector("[data-chart] .main-svg", state="attached")


def measure(page: Any, size: str, name: str, figures: dict[str, Any], problems: list[str]) -> None:
    """Check one page as it stands, noting its figures and what is wrong with it."""
    viewport = page.viewport_size["width"]
    width = page_width(page)
    header = page.evaluate(HEADER)
    figures[f"{name}@{size}"] = {"width": width, "header": header["height"]}
    if width > viewport:
        problems.append(f"{name} at {size} is {width} px wide on a {viewport} px screen")
    if header["rows"] > 1 or header["height"] > ONE_LINE:
        problems.append(f"{name} at {size}: the header wraps ({header})")
    page.wait_for_function(DRAWN)
    for chart in page.evaluate(LEGENDS):
        legend, plot = chart["legend"], chart["plot"]
        if legend is None:
            continue  # small multiples: each chart titled with its line, no legend
        # A legend's box has a few px of transparent padding round its items: that may overlap.
        apart = legend["bottom"] <= plot["top"] + PAD or legend["top"] >= plot["bottom"] - PAD
        if not (apart or legend["left"] >= plot["right"] - PAD or legend["right"] <= plot["left"] + PAD):
            problems.append(f"{name} at {size}: the legend of {chart['chart']} covers its plot ({chart})")
        if chart["scrolls"]:
            problems.append(f"{name} at {size}: the legend of {chart['chart']} hides entries behind a scrollbar")
        title, ticks = chart["title"], chart["ticks"]
        under = max(box["bottom"] for box in (plot, title, ticks) if box)
        if legend["top"] >= plot["bottom"] - PAD and legend["top"] - under > 2 * LEGEND_ROW:
            problems.append(f"{name} at {size}: the legend of {chart['chart']} stands apart below it, room kept "
                            f"for entries it does not show ({chart})")  # fmt: skip
        if title and ticks and title["right"] > title["left"] and title["top"] < ticks["bottom"] - PAD:
            problems.append(f"{name} at {size}: the x axis title of {chart['chart']} covers its labels ({chart})")
    for card in page.evaluate(CARDS_OVERFLOWING):
        problems.append(f"{name} at {size}: the card {card} runs out of its card")
    if size in PHONES:
        for target in page.evaluate(TAP_TARGETS):
            if min(target["width"], target["height"]) < TAP - 0.5:
                problems.append(
                    f"{name} at {size}: a {target['width']:.0f}×{target['height']:.0f} target {target['what']}"
                )


def road_cells(
    page: Any, size: str, name: str, roads: dict[str, str], figures: dict[str, Any], problems: list[str]
) -> None:
    """The Bead Plate's and the Big Road's cells are big enough to read."""
    for road, selector in roads.items():
        cell = page.evaluate(CELL_SIZE, selector)
        figures[f"{name}@{size}"][road] = round(cell, 1)
        if cell < ROAD_CELL:
            problems.append(f"{name} at {size}: {road} cells are {cell:.1f} px")


def tap_the_newest_bead(page: Any, size: str, problems: list[str]) -> None:
    """Tapping (clicking, on a desktop) a mark shows its round in a box that stays on the screen."""
    cells = [
        cell for winner in "BPT" for cell in marks(page.locator("#road-bead_plate").inner_html(), f"bead-{winner}")
    ]
    page.locator("svg.road-bead_plate").scroll_into_view_if_needed()
    x, y = page.evaluate(
        """([col, row, cell]) => { const svg = document.querySelector("svg.road-bead_plate");
            const box = svg.getBoundingClientRect(), view = svg.viewBox.baseVal;
            const k = Math.min(box.width / view.width, box.height / view.height);  // "meet"
            return [box.left + ((col + .5) * cell - view.x) * k, box.top + ((row + .5) * cell - view.y) * k]; }""",
        [*max(cells), CELL],
    )
    (page.touchscreen.tap if size in PHONES else page.mouse.click)(x, y)
    tip = page.wait_for_selector("#road-tip:not([hidden])").bounding_box()
    screenshot(page, f"phones-table-tip-{size}", full_page=False)
    viewport = page.viewport_size
    if tip["x"] < 0 or tip["x"] + tip["width"] > viewport["width"] or page_width(page) > viewport["width"]:
        problems.append(
            f"table at {size}: a tapped mark's round shows off the screen ({tip}, page {page_width(page)} px)"
        )
    if size in PHONES and tip["width"] < viewport["width"] * 0.9:
        problems.append(f"table at {size}: a tapped mark's round is squeezed into {tip['width']:.0f} px")


def test_every_page_fits_each_screen_from_a_phone_to_a_tv(server: LiveServer, browser: Any) -> None:
    slug = "phone-1"
    deal_shoe(server, slug, ROUNDS)
    server.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import User; User.objects.create_superuser('phones', '', 'pw-phones-1')",
    )
    with urllib.request.urlopen(f"{server.url}/api/tables/{slug}/rounds", timeout=10) as response:
        receipt = json.loads(response.read())["rounds"][-1]["id"]
    figures: dict[str, Any] = {}
    problems: list[str] = []
    for size in SIZES_SEEN:
        with sized_page(browser, size) as page:
            log_in(server, page, "phones", "pw-phones-1", size)
            measure(page, size, "review", figures, problems)
            screenshot(page, f"phones-review-{size}")
            if size.startswith("phone"):  # the flat-bet chart's 14 lines, one small chart each
                assert 14 in page.evaluate(SUBPLOTS), page.evaluate(SUBPLOTS)

            page.goto(server.url + "/")
            page.wait_for_selector("#connection.connection-live")
            measure(page, size, "lobby", figures, problems)
            road_cells(
                page,
                size,
                "lobby",
                {"bead_plate": ".card-road-bead svg", "big_road": ".card-road-big svg"},
                figures,
                problems,
            )
            screenshot(page, f"phones-lobby-{size}")

            page.goto(f"{server.url}/tables/{slug}/")
            page.wait_for_selector("#connection.connection-live")
            page.wait_for_selector("#stats [data-chart] .main-svg", state="attached")
            measure(page, size, "table", figures, problems)
            road_cells(
                page,
                size,
                "table",
                {road: f"svg.road-{road}" for road in ("bead_plate", "big_road")},
                figures,
                problems,
            )
            screenshot(page, f"phones-table-{size}")
            tap_the_newest_bead(page, size, problems)
            if size.startswith("tv"):  # the display beside the table: its cards are the biggest
                page.goto(f"{server.url}/tables/{slug}/display/")
                page.wait_for_selector("#connection.connection-live")
                for card in page.evaluate(CARDS_OVERFLOWING):
                    problems.append(f"display at {size}: the card {card} runs out of its card")

            page.goto(f"{server.url}/rounds/{receipt}/")
            measure(page, size, "receipt", figures, problems)
            road_cells(
                page,
                size,
                "receipt",
                {road: f"svg.road-{road}" for road in ("bead_plate", "big_road")},
                figures,
                problems,
            )
            screenshot(page, f"phones-receipt-{size}")

            page.goto(f"{server.url}/tables/{slug}/odds/")
            measure(page, size, "odds", figures, problems)
            screenshot(page, f"phones-odds-{size}")

            # The round and shoe pages are the admin's (its own responsive styles).
            for name, path in (("rounds", "round/"), ("round", "round/1/change/"), ("shoe", "shoe/1/change/")):
                page.goto(f"{server.url}/admin/tables/{path}")
                figures[f"admin-{name}@{size}"] = {"width": page_width(page)}
                if page_width(page) > page.viewport_size["width"]:
                    problems.append(f"the admin's {name} page at {size} is {page_width(page)} px wide")
                header = page.evaluate("document.getElementById('header').getBoundingClientRect().width")
                if header < page.viewport_size["width"] - 1:
                    problems.append(f"the admin's {name} page at {size}: its header stops at {header:.0f} px")
                screenshot(page, f"phones-admin-{name}-{size}")
    print(figures)
    assert problems == [], "\n".join(problems)
