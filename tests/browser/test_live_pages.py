"""Seen in a real browser: pages that update themselves as rounds are posted."""

from __future__ import annotations

import json
from typing import Any

from tests.road_marks import marks
from tests.rounds import SEED

from .browsing import LiveServer

BANKER_NATURAL = {"player": ["2H", "3D"], "banker": ["9S", "KH"]}
LIVE = "#connection.connection-live"
LIVE_OR_HIDDEN = "#connection"


def text(page: Any, selector: str) -> str:
    return page.locator(selector).inner_text()


def road_marks(page: Any, road: str, kind: str) -> list[tuple[int, int]]:
    """(column, row) of the marks of ``kind`` the page shows on the road ``road``."""
    return marks(page.locator(road).inner_html(), kind)


def displayed(page: Any, selector: str) -> bool:
    """Whether an element is displayed: a mark is a vertex of a path, whose own box is empty."""
    return page.evaluate("s => getComputedStyle(document.querySelector(s)).display !== 'none'", selector)


def test_the_table_page_shows_posted_rounds_without_reload(server: LiveServer, page: Any) -> None:
    server.table("baccarat-1", "Baccarat 1")
    server.post("baccarat-1", "shoes")
    page.goto(server.url + "/tables/baccarat-1/")
    page.wait_for_selector(LIVE)
    page.evaluate("window.notReloaded = true")

    first = server.post("baccarat-1", "rounds", SEED)["round"]
    page.wait_for_selector(f"#history >> text={first['id']}", timeout=2000)
    server.post("baccarat-1", "rounds", BANKER_NATURAL)
    page.wait_for_selector("#roads svg.road-big_road path.mk-ring-B", state="attached", timeout=2000)

    assert page.evaluate("window.notReloaded") is True
    assert road_marks(page, "#road-big_road", "ring-P") == [(0, 0)]
    assert road_marks(page, "#road-big_road", "ring-B") == [(1, 0)]
    assert road_marks(page, "#road-bead_plate", "bead-P") == [(0, 0)]
    assert road_marks(page, "#road-bead_plate", "bead-B") == [(0, 1)]
    assert "Banker wins" in text(page, "#last-round")
    assert "2" in text(page, "#game-info")


def test_the_ask_buttons_preview_the_next_marks(server: LiveServer, page: Any) -> None:
    server.table("baccarat-2", "Baccarat 2")
    server.post("baccarat-2", "shoes")
    for cards in (SEED, SEED, BANKER_NATURAL):  # P P B: a next P would mark Big Eye
        server.post("baccarat-2", "rounds", cards)
    page.goto(server.url + "/tables/baccarat-2/")
    ask = "svg.road-big_eye_road .ask-P"
    assert not displayed(page, ask)
    page.hover("[data-ask=P]")
    assert displayed(page, ask)
    page.mouse.move(0, 0)
    assert not displayed(page, ask)
    page.click("[data-ask=P]")  # a tap keeps it on
    page.mouse.move(0, 0)
    assert displayed(page, ask)


def test_the_lobby_updates_a_tables_card_live(server: LiveServer, page: Any) -> None:
    server.table("baccarat-3", "Baccarat 3")
    server.post("baccarat-3", "shoes")
    page.goto(server.url + "/")
    page.wait_for_selector(LIVE)
    card = "#table-baccarat-3"
    assert page.locator(f"{card} path").count() == 0
    server.post("baccarat-3", "rounds", SEED)
    page.wait_for_selector(f"{card} svg.road-bead_plate path.mk-bead-P", state="attached", timeout=2000)
    assert road_marks(page, f"{card} svg.road-big_road", "ring-P") == [(0, 0)]


def test_a_page_that_reconnects_resyncs_the_rounds_it_missed(server: LiveServer, page: Any) -> None:
    server.table("baccarat-4", "Baccarat 4")
    server.post("baccarat-4", "shoes")
    page.goto(server.url + "/tables/baccarat-4/")
    page.wait_for_selector(LIVE)

    server.stop()  # the server goes away; the page says so and keeps retrying
    page.wait_for_selector("#connection.connection-offline", timeout=5000)
    server.start()
    rounds = [server.post("baccarat-4", "rounds", cards)["round"]["id"] for cards in (SEED, BANKER_NATURAL)]

    page.wait_for_selector(LIVE, timeout=15000)
    for round_id in rounds:
        page.wait_for_selector(f"#history >> text={round_id}", timeout=5000)


def test_the_game_stats_charts_draw_and_follow_posted_rounds(server: LiveServer, page: Any) -> None:
    server.table("baccarat-5", "Baccarat 5")
    server.post("baccarat-5", "shoes")
    server.post("baccarat-5", "rounds", SEED)
    page.goto(server.url + "/tables/baccarat-5/")
    page.wait_for_selector(LIVE)
    page.wait_for_selector("[data-chart=chart-running] .main-svg")  # plotly.js drew it
    points = "document.querySelector('[data-chart=chart-running]').data[0].y.length"
    assert page.evaluate(points) == 1
    server.post("baccarat-5", "rounds", BANKER_NATURAL)
    page.wait_for_function(f"() => {points} === 2", timeout=2000)
    assert "50.0%" in text(page, "#stats")


def test_the_shoe_odds_panel_and_chart_follow_posted_rounds(server: LiveServer, page: Any) -> None:
    server.table("baccarat-7", "Baccarat 7", audience="everything")  # a training room: every odds shown
    server.post("baccarat-7", "shoes")
    page.goto(server.url + "/tables/baccarat-7/")
    page.wait_for_selector(LIVE)
    assert "full shoe" in text(page, "#odds") and "416 cards left" in text(page, "#odds")
    page.wait_for_selector("[data-chart=chart-odds] .main-svg")
    points = "document.querySelector('[data-chart=chart-odds]').data[0].y.length"
    assert page.evaluate(points) == 1  # the full shoe

    server.post("baccarat-7", "rounds", SEED)  # computed on the server's worker thread
    page.wait_for_selector("#odds >> text=after round 1", timeout=2000)
    assert "410 cards left" in text(page, "#odds")
    page.wait_for_function(f"() => {points} === 2", timeout=2000)
    banker = page.locator("#odds tr", has_text="Banker").first.inner_text()
    assert "−1.058%" in banker  # the full-shoe value beside the shoe left
    # The next round's odds: only the numbers that changed, and a point more on each line.
    watch = "window.pushes = []; document.addEventListener('htmx:wsBeforeMessage', e => pushes.push(e.detail.message))"
    page.evaluate(f"() => {{ {watch} }}")
    server.post("baccarat-7", "rounds", SEED)
    page.wait_for_selector("#odds >> text=after round 2", timeout=2000)
    page.wait_for_function(f"() => {points} === 3", timeout=2000)
    assert "404 cards left" in text(page, "#odds") and "−1.058%" in page.locator("#or2").inner_text()
    assert not any('id="odds"' in push for push in page.evaluate("window.pushes"))  # never the panel whole


def test_a_push_older_than_what_the_page_shows_is_dropped(server: LiveServer, page: Any) -> None:
    server.table("baccarat-8", "Baccarat 8")
    server.post("baccarat-8", "shoes")
    server.post("baccarat-8", "rounds", SEED)
    page.goto(server.url + "/tables/baccarat-8/")
    page.wait_for_selector(LIVE)
    shown = page.get_attribute("#game-info", "data-version")
    assert shown.startswith("1:1:0")

    page.evaluate("""() => {
        window.sent = [];
        document.addEventListener("htmx:wsBeforeSend", e => window.sent.push(e.detail.message));
    }""")

    def delivered(version: str, since: str = "", element: str = "game-info") -> bool:
        """Whether the page would swap in a pushed element (its game info unless told)
        carrying this version (and, in a delta, the version it starts from): what htmx
        asks it before each swap."""
        script = """([version, since, element]) => {
            const pushed = document.createElement("template");
            pushed.innerHTML = `<section id="${element}" data-version="${version}"></section>`;
            if (since) pushed.content.firstElementChild.dataset.since = since;
            const target = document.getElementById(element);
            const detail = {fragment: pushed.content, target, shouldSwap: true};
            const event = new CustomEvent("htmx:oobBeforeSwap", {bubbles: true, cancelable: true, detail});
            return target.dispatchEvent(event);
        }"""
        return page.evaluate(script, [version, since, element])

    assert not delivered("1:0:0:0")  # from before the round the page shows
    assert delivered("1:2:0:0") and delivered("2:0:0:0") and delivered(shown)
    assert page.evaluate("window.sent") == []
    # A delta applies to the state it starts from only; from another, the page asks for the whole.
    assert delivered("1:2:0:1", since=shown)
    assert not delivered("1:1:0:1", since="1:0:0:0")  # the page shows that round already
    assert page.evaluate("window.sent") == []
    assert not delivered("1:3:0:1", since="1:2:0:1")  # a push the page never got came between
    [asked] = page.evaluate("window.sent")
    assert json.loads(asked)["have"]["baccarat-8"].startswith("1:1:0:")  # what the page shows
    # A round's odds may come before the round's own push: its "computing" line stays out.
    page.evaluate("document.getElementById('odds-pending').dataset.version = '1:2:0:2'")
    assert not delivered("1:2:0:1", since=shown, element="odds-pending")
    assert delivered("1:2:0:1", since=shown) and len(page.evaluate("window.sent")) == 1


def test_the_good_road_filter_shows_only_matching_tables(server: LiveServer, page: Any) -> None:
    server.table("long-banker", "Long Banker Table")
    server.post("long-banker", "shoes")
    for _ in range(4):
        server.post("long-banker", "rounds", BANKER_NATURAL)
    server.table("quiet", "Quiet Table")
    page.goto(server.url + "/")
    assert page.locator("#table-long-banker").get_attribute("class") == "table-card has-good-road"
    page.check("input[name=good]")
    assert page.locator("#table-long-banker").is_visible() and not page.locator("#table-quiet").is_visible()
    page.select_option("select[name=pattern]", "clap_clap_road")
    assert not page.locator("#table-long-banker").is_visible() and page.locator("#no-match").is_visible()
    page.select_option("select[name=pattern]", "long_banker")
    assert page.locator("#table-long-banker").is_visible()
    assert "pattern=long_banker" in page.url  # a filtered lobby can be bookmarked
