"""Seen in a real browser: a table page kept up to date by small pushes (the changes since
the push before), resyncing whole when it missed one, reconnected or a round was voided;
and the roads' marks as seed 000 draws them."""

from __future__ import annotations

import base64
from typing import Any

from tables.pages import fragments
from tests.road_marks import asks, marks
from tests.shuffled import shoe_rounds

from .browsing import LiveServer

LIVE = "#connection.connection-live"
ROADS = tuple(fragments.TABLE_ROADS)  # the live roads of a table page
DERIVED_KINDS = tuple(f"{mark}-{colour}" for mark in ("eye", "dot", "slash") for colour in ("red", "blue"))
KINDS = ("bead-B", "bead-P", "bead-T", "ring-B", "ring-P", *DERIVED_KINDS)
# Naturals with their suits turning, so that no card is dealt more often than 8 decks hold.
SUITS = "SHDC"


def player_win(i: int) -> dict[str, list[str]]:
    return {"player": [f"9{SUITS[i % 4]}", f"K{SUITS[i % 4]}"], "banker": [f"2{SUITS[i % 4]}", f"5{SUITS[i % 4]}"]}


def banker_win(i: int) -> dict[str, list[str]]:
    return {"player": [f"3{SUITS[i % 4]}", f"4{SUITS[i % 4]}"], "banker": [f"8{SUITS[i % 4]}", f"Q{SUITS[i % 4]}"]}


def road_marks(page: Any, road: str, kind: str) -> list[tuple[int, int]]:
    return marks(page.locator(f"#road-{road}").inner_html(), kind)


def beads(page: Any) -> int:
    return sum(len(road_marks(page, "bead_plate", f"bead-{winner}")) for winner in "BPT")


def history_rows(page: Any) -> list[str]:
    """The round numbers of the history's rows, newest first, as the page shows them."""
    return page.locator("#history-rows tr:visible td:first-child").all_inner_texts()


def watch_pushes(page: Any) -> None:
    """Keep what the socket brings, to tell deltas from whole parts."""
    page.evaluate("""() => {
        window.pushes = [];
        document.addEventListener("htmx:wsBeforeMessage", e => window.pushes.push(e.detail.message));
    }""")


def open_table(server: LiveServer, page: Any, slug: str, audience: str = "full_shoe") -> None:
    server.table(slug, slug.title(), audience)
    server.post(slug, "shoes")
    page.goto(f"{server.url}/tables/{slug}/")
    page.wait_for_selector(LIVE)
    watch_pushes(page)
    page.evaluate("window.notReloaded = true")


def open_table_after(
    server: LiveServer, page: Any, slug: str, rounds: list[dict[str, list[str]]], audience: str = "full_shoe"
) -> None:
    """A table page loaded once ``rounds`` of its shoe are dealt (posted faster than a page
    would take their pushes), then watched as :func:`open_table` does."""
    open_table(server, page, slug, audience)
    for cards in rounds:
        server.post(slug, "rounds", cards)
    page.reload()
    page.wait_for_selector(LIVE)
    watch_pushes(page)
    page.evaluate("window.notReloaded = true")


def post_and_see(server: LiveServer, page: Any, slug: str, cards: dict[str, list[str]]) -> dict[str, Any]:
    posted = server.post(slug, "rounds", cards)["round"]
    page.wait_for_selector(f"#game-info >> text={posted['id']}", timeout=3000)
    return posted


def test_a_table_page_follows_several_rounds_through_deltas(server: LiveServer, page: Any, browser: Any) -> None:
    server.table("deltas", "Deltas")
    page.goto(f"{server.url}/tables/deltas/")
    page.wait_for_selector(LIVE)
    watch_pushes(page)
    page.evaluate("window.notReloaded = true")
    server.post("deltas", "shoes")  # pushed whole: the page showed no shoe before
    page.wait_for_selector("#history-rows >> text=No rounds in this shoe yet.", timeout=3000)
    page.evaluate("document.getElementById('history').kept = true")
    post_and_see(server, page, "deltas", player_win(0))  # the shoe's first round: a delta like the others
    assert history_rows(page) == ["1"] and "No rounds" not in page.locator("#history-rows").inner_text()
    for i in range(1, 6):
        posted = post_and_see(server, page, "deltas", banker_win(i) if i % 2 else player_win(i))
        assert history_rows(page)[0] == str(posted["number"]) and len(history_rows(page)) == i + 1
        assert beads(page) == i + 1
    assert page.evaluate("window.notReloaded") is True
    assert road_marks(page, "big_road", "ring-P") == [(0, 0), (2, 0), (4, 0)]
    assert road_marks(page, "big_road", "ring-B") == [(1, 0), (3, 0), (5, 0)]
    pushes = page.evaluate("window.pushes")
    rounds = [push for push in pushes if 'id="game-info"' in push]  # not the odds pushes
    assert len(rounds) == 7 and "data-since" not in rounds[0]  # the new shoe, whole
    assert all("data-since" in push for push in rounds[1:])  # its rounds, the first one too
    # 7 KiB (the page's 10 KiB limit less room): a B P B P shoe changes its good roads' badges
    # every round (Banker Always Jumps, then Player Always Jumps, issue 21), ~6.3 KiB a delta.
    assert max(len(push.encode()) for push in rounds[1:]) < 7 * 1024
    # The history gained its rows one at a time: it is the one the page loaded.
    assert page.evaluate("document.getElementById('history').kept") is True
    # And the page shows what one loaded now shows.
    fresh = browser.new_page()
    fresh.goto(f"{server.url}/tables/deltas/")
    for part in ("#game-facts", "#roads", "#last-round", "#stat-counts", "#history-rows", "#history-more"):
        assert page.locator(part).inner_text() == fresh.locator(part).inner_text(), part
    for road in ROADS:
        assert [road_marks(page, road, kind) for kind in KINDS] == [road_marks(fresh, road, kind) for kind in KINDS]
    fresh.close()


def test_a_page_that_missed_a_push_asks_for_the_whole_state(server: LiveServer, page: Any) -> None:
    open_table(server, page, "missed")
    post_and_see(server, page, "missed", player_win(0))
    page.evaluate("""() => {
        document.getElementById("history").kept = true;
        window.dropNext = true;  // lose the next round's delta, as a network might
        document.addEventListener("htmx:wsBeforeMessage", e => {
            if (!window.dropNext || !e.detail.message.includes("data-since")) return;
            window.dropNext = false;
            e.preventDefault();
        });
    }""")
    second = server.post("missed", "rounds", banker_win(1))["round"]
    page.wait_for_function("() => window.dropNext === false", timeout=3000)
    assert second["id"] not in page.locator("#history").inner_text()
    third = post_and_see(server, page, "missed", player_win(2))
    # The third round's delta did not start where the page was: it asked for everything.
    history = page.locator("#history").inner_text()
    assert second["id"] in history and third["id"] in history
    assert history_rows(page) == ["3", "2", "1"] and beads(page) == 3
    assert page.evaluate("document.getElementById('history').kept") is None  # swapped in whole
    assert page.evaluate("window.notReloaded") is True


def test_a_page_that_reconnects_gets_the_whole_state_it_missed(server: LiveServer, page: Any) -> None:
    open_table(server, page, "reconnect")
    post_and_see(server, page, "reconnect", player_win(0))
    server.stop()
    page.wait_for_selector("#connection.connection-offline", timeout=5000)
    server.start()
    posted = [server.post("reconnect", "rounds", cards)["round"]["id"] for cards in (banker_win(1), player_win(2))]
    page.wait_for_selector(LIVE, timeout=15000)
    for round_id in posted:
        page.wait_for_selector(f"#history >> text={round_id}", timeout=5000)
    assert history_rows(page) == ["3", "2", "1"] and beads(page) == 3
    assert page.evaluate("window.notReloaded") is True


def test_a_voided_round_leaves_the_roads_of_every_open_page(server: LiveServer, page: Any, browser: Any) -> None:
    open_table(server, page, "voiding")
    posted = [post_and_see(server, page, "voiding", cards) for cards in (player_win(0), banker_win(1), player_win(2))]
    assert road_marks(page, "bead_plate", "bead-B") == [(0, 1)]
    server.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import User; User.objects.create_superuser('floor', '', 'pw-floor-1')",
    )
    admin = browser.new_context().new_page()
    try:
        admin.goto(server.url + "/admin/login/?next=/admin/tables/round/")
        admin.fill("#id_username", "floor")
        admin.fill("#id_password", "pw-floor-1")
        admin.click("input[type=submit]")
        admin.goto(f"{server.url}/admin/tables/round/?q={posted[1]['id']}")
        admin.check("input[name=_selected_action]")
        admin.select_option("select[name=action]", "void_rounds")
        admin.click("button[name=index]")
        admin.fill("textarea[name=reason]", "card misread")
        admin.click("input[name=apply]")
        admin.wait_for_selector("text=Voided 1 round.")
    finally:
        admin.context.close()
    page.wait_for_function(
        "() => document.querySelector('#history-rows tr.voided') !== null", timeout=3000
    )  # the void pushes the whole state
    assert road_marks(page, "bead_plate", "bead-B") == [] and road_marks(page, "bead_plate", "bead-P") == [
        (0, 0),
        (0, 1),
    ]
    assert road_marks(page, "big_road", "ring-P") == [(0, 0), (0, 1)]
    assert "voided: card misread" in page.locator("#history").inner_text()


def pixel(page: Any, x: float, y: float) -> tuple[int, int, int]:
    """The colour the page shows at a point of the viewport, read from a screenshot."""
    shot = base64.b64encode(page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1})).decode()
    script = """async shot => {
        const image = new Image();
        image.src = "data:image/png;base64," + shot;
        await image.decode();
        const canvas = new OffscreenCanvas(1, 1), context = canvas.getContext("2d");
        context.drawImage(image, 0, 0);
        return Array.from(context.getImageData(0, 0, 1, 1).data.slice(0, 3));
    }"""
    return tuple(page.evaluate(script, shot))


def test_pair_dots_are_red_top_left_for_banker_and_blue_bottom_right_for_player_whatever_won(
    server: LiveServer, page: Any
) -> None:
    open_table(server, page, "pairs")
    post_and_see(server, page, "pairs", {"player": ["9S", "KH"], "banker": ["4H", "4D"]})  # Player 9-8, banker pair
    post_and_see(server, page, "pairs", {"player": ["2C", "2S"], "banker": ["9H", "KD"]})  # Banker 9-4, player pair
    # The dots are markers of their own, painted in their own colour.
    fills = page.evaluate("""() => ["pair-B", "pair-P"].map(kind => {
        const dot = document.querySelector(`#mark-${kind} circle`);
        return [getComputedStyle(dot).fill, dot.cx.baseVal.value, dot.cy.baseVal.value];
    })""")
    assert fills == [["rgb(217, 52, 43)", 3.5, 3.5], ["rgb(31, 111, 209)", 16.5, 16.5]]  # in a 20-unit cell
    assert road_marks(page, "bead_plate", "pair-B") == [(0, 0)] and road_marks(page, "bead_plate", "pair-P") == [(0, 1)]
    assert road_marks(page, "big_road", "pair-B") == [(0, 0)] and road_marks(page, "big_road", "pair-P") == [(1, 0)]

    def at(road: str, x: float, y: float) -> tuple[int, int, int]:
        """What the page paints at (x, y) in a road's units."""
        point = page.evaluate(
            """([road, x, y]) => {
                const svg = document.getElementById(road), p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
                return [p.x, p.y];
            }""",
            [f"road-{road}", x, y],
        )
        return pixel(page, *point)

    def red(c: tuple[int, int, int]) -> bool:
        return c[0] > 150 and c[1] < 110 and c[2] < 110

    def blue(c: tuple[int, int, int]) -> bool:
        return c[2] > 150 and c[0] < 110

    # The Bead Plate: a blue Player bead (left of its letter) with a red dot at its top left;
    # a red Banker bead below it with a blue dot at its bottom right.
    assert blue(at("bead_plate", 4, 10)) and red(at("bead_plate", 3.5, 3.5))
    assert red(at("bead_plate", 4, 30)) and blue(at("bead_plate", 16.5, 36.5))
    # The Big Road: the same dots on the rings, a blue one and a red one.
    assert blue(at("big_road", 10, 2.5)) and red(at("big_road", 3.5, 3.5))
    assert red(at("big_road", 30, 2.5)) and blue(at("big_road", 36.5, 16.5))


def shown_asks(page: Any) -> dict[str, list[tuple[str, tuple[int, int]]]]:
    """Each road's ask marks a next Banker and a next Player would add, as the page has them."""
    return {f"{road} {w}": asks(page.locator(f"#now-{road}").inner_html(), w) for road in ROADS for w in "BP"}


def test_the_ask_buttons_show_the_next_marks_of_the_state_a_page_reached_by_deltas(
    server: LiveServer, page: Any, browser: Any
) -> None:
    open_table(server, page, "asking")
    for i in range(7):  # enough columns for every derived road to ask
        post_and_see(server, page, "asking", banker_win(i) if i % 3 else player_win(i))
    # A round's push leaves the ask marks out: the page has none of the state it shows.
    assert not any(shown_asks(page).values())
    page.hover("[data-ask=B]")
    page.wait_for_selector("#now-big_road .ask-B", state="attached", timeout=3000)
    fresh = browser.new_page()
    fresh.goto(f"{server.url}/tables/asking/")  # the same state, drawn whole
    assert shown_asks(page) == shown_asks(fresh) and all(shown_asks(fresh).values())
    for road in ROADS:  # and the hovered button shows them
        assert page.locator(f"#now-{road} .ask-B").first.evaluate("e => getComputedStyle(e).display") != "none"
    # Toggled on, the button keeps showing the next marks of each round that comes.
    page.click("[data-ask=P]")
    post_and_see(server, page, "asking", player_win(7))
    page.wait_for_function("() => document.getElementById('roads').dataset.asksAt.endsWith(':8:0')", timeout=3000)
    fresh.reload()
    assert shown_asks(page) == shown_asks(fresh)
    fresh.close()


def test_hovering_a_road_mark_shows_its_round(server: LiveServer, page: Any) -> None:
    open_table(server, page, "hover")
    first = post_and_see(server, page, "hover", player_win(0))
    post_and_see(server, page, "hover", banker_win(1))
    box = page.locator("#road-bead_plate").bounding_box()
    cell = box["height"] / 6
    page.mouse.move(box["x"] + cell / 2, box["y"] + cell / 2)  # the first round's bead
    page.wait_for_selector("#road-tip:visible", timeout=3000)
    tip = page.locator("#road-tip").inner_text()
    assert "Round 1" in tip and "Player wins" in tip and "Bead Plate" in tip.title()
    assert first["id"] not in tip  # the round as the roads show it, not the whole record
    page.mouse.move(box["x"] + cell * 5.5, box["y"] + cell * 5.5)  # an empty cell
    page.wait_for_selector("#road-tip", state="hidden", timeout=3000)


def test_a_live_history_keeps_showing_the_latest_20_rounds_as_rows_come(server: LiveServer, page: Any) -> None:
    server.table("long", "Long")
    server.post("long", "shoes")
    for i in range(20):
        server.post("long", "rounds", banker_win(i) if i % 2 else player_win(i))
    page.goto(server.url + "/tables/long/")
    page.wait_for_selector(LIVE)
    assert history_rows(page) == [str(n) for n in range(20, 0, -1)]
    post_and_see(server, page, "long", player_win(20))
    post_and_see(server, page, "long", banker_win(21))
    assert history_rows(page) == [str(n) for n in range(22, 2, -1)]
    assert "The latest 20 of 22 rounds" in page.locator("#history").inner_text()


def odds_as_shown(page: Any) -> dict[str, Any]:
    """The odds panel's rows as the page's DOM has them, the chart's figure it keeps, and
    what hovering the last point of each line the odds chart shows brings up."""
    return page.evaluate("""async () => {
        const chart = document.querySelector("[data-chart=chart-odds]"), hovers = [];
        for (const line of chart.data.filter(line => line.visible !== false)) {  // the lines shown
            const last = line.y.length - 1;  // the round, as the odds chart's x count from 0
            Plotly.Fx.hover(chart, {xval: last, yval: line.y[last]}, line.yaxis === "y2" ? "xy2" : "xy");
            await new Promise(wait => setTimeout(wait, 50));  // plotly draws a hover once in 20 ms
            hovers.push(Array.from(chart.querySelectorAll(".hoverlayer text")).map(t => t.textContent));
        }
        return {
            rows: document.getElementById("odds-rows").outerHTML,
            figure: JSON.parse(document.getElementById("chart-odds").textContent),
            hovers,
        };
    }""")


def test_a_bet_that_becomes_or_stops_being_the_players_edge_comes_as_a_flag_and_looks_as_rendered_whole(
    server: LiveServer, page: Any
) -> None:
    # Seed 11's shoe: the Perfect Pair (the 7th row) becomes the player's edge in round 64
    # and stops being it in round 66; its line joins the odds chart, then leaves it.
    rounds = shoe_rounds(11, 66)
    open_table_after(server, page, "edges", rounds[:63], audience="everything")  # a training room
    whole = page.context.new_page()
    for number, edge in ((64, True), (65, True), (66, False)):
        server.post("edges", "rounds", rounds[number - 1])
        page.wait_for_selector(f"#odds-when >> text=after round {number}", timeout=5000)
        assert page.locator("#or7").get_attribute("class") == ("edge-positive" if edge else None), f"round {number}"
        whole.goto(f"{server.url}/tables/edges/")
        whole.wait_for_selector("[data-chart=chart-odds] .main-svg")
        page.wait_for_selector("[data-chart=chart-odds] .main-svg")
        shown = odds_as_shown(page)
        assert shown == odds_as_shown(whole), f"round {number}"
        # Each line's hover names it, as the line's own hover text did before lines shared one.
        names = [line["name"] for line in shown["figure"]["data"] if line.get("visible", True)]
        assert [hover[0] for hover in shown["hovers"]] == names and ("Perfect Pair" in names) is edge
    flagged = [push for push in page.evaluate("window.pushes") if "data-edges" in push]
    assert len(flagged) == 2 and not any("<tr" in push for push in flagged)  # a flag each, never the row whole
    # As each line's own hover text wrote it: the line's name beside the round and the return.
    assert shown["hovers"][0] == ["Banker", "after round 66: -1.14%"], shown["hovers"]


def test_a_new_shoe_comes_to_a_page_showing_the_shoe_before_as_a_small_delta_and_looks_as_loaded(
    server: LiveServer, page: Any, browser: Any
) -> None:
    # Seed 11's shoe ends with the Perfect Pair flagged as the player's edge (rounds 64-65):
    # the new shoe takes the flag away, empties the roads and the history, and turns the
    # stats, the charts and the odds back to a full shoe's.
    rounds = shoe_rounds(11, 65)
    open_table_after(server, page, "next-shoe", rounds[:64], audience="everything")
    server.post("next-shoe", "rounds", rounds[64])
    page.wait_for_selector("#odds-when >> text=after round 65", timeout=5000)
    assert page.locator("#or7").get_attribute("class") == "edge-positive"
    server.post("next-shoe", "shoes")
    page.wait_for_selector("#odds-when >> text=full shoe", timeout=5000)
    page.wait_for_selector("#history-rows >> text=No rounds in this shoe yet.", timeout=5000)
    pushes = [push for push in page.evaluate("window.pushes") if 'id="game-info"' in push]
    started = pushes[-1]
    assert 'data-version="2:0:' in started and 'data-since="1:65:' in started, "a delta from the shoe before"
    assert len(started.encode()) <= 5 * 1024
    assert page.evaluate("window.notReloaded") is True
    assert not [push for push in pushes if 'data-version="2:' in push and "data-since" not in push], "no resync"
    fresh = browser.new_page()
    fresh.goto(f"{server.url}/tables/next-shoe/")
    fresh.wait_for_selector("[data-chart=chart-odds] .main-svg")
    page.wait_for_selector("[data-chart=chart-odds] .main-svg")
    for part in ("#game-facts", "#last-round", "#stat-counts", "#history", "#good-roads", "#road-words", "#cards-auth"):
        assert page.locator(part).inner_text() == fresh.locator(part).inner_text(), part
    for road in ROADS:
        assert [road_marks(page, road, kind) for kind in KINDS] == [[] for _ in KINDS], road
        assert page.locator(f"#road-{road}").get_attribute("viewBox") == fresh.locator(f"#road-{road}").get_attribute(
            "viewBox"
        ), road
    assert page.locator("#or7").get_attribute("class") is None
    assert odds_as_shown(page) == odds_as_shown(fresh)
    for chart in ("chart-shares", "chart-running"):
        assert page.evaluate(f"JSON.parse(document.getElementById('{chart}').textContent)") == fresh.evaluate(
            f"JSON.parse(document.getElementById('{chart}').textContent)"
        ), chart
    fresh.close()
