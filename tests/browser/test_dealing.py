"""Seen in a real browser: a round dealt card by card from a card-reading shoe (issue 34).
A display beside the table and the table page watch each card arrive in its place, the
hands' running scores and what the rules decide; the roads change only when the round
is complete; a page that reconnects mid-round shows the round as far as it has gone,
and the round in progress survives the server's restart."""

from __future__ import annotations

import json
import statistics
import time
import urllib.error
import urllib.request
from typing import Any

from .browsing import LiveServer, off_screen, screenshot, sized_page, table_with_limits

LIVE = "#connection.connection-live"
ARRIVES_WITHIN = 0.3  # seconds from a card's post to the card on an open display (median)

# Round 2 dealt card by card: P 3♥, B 2♠, P 3♦, B 2♣: player 6 stands, banker 4 draws 9♠ (banker 3): Player wins.
ROUND_2 = ["3H", "2S", "3D", "2C", "9S"]
FIRST = {"player": ["9H", "KS"], "banker": ["2C", "4C"]}  # round 1, posted whole: a Player win


def cards_shown(page: Any) -> list[str]:
    """The cards the last-round panel shows, player's then banker's (dealt, not places)."""
    return page.eval_on_selector_all("#last-round .card:not(.slot)", "cards => cards.map(c => c.title)")


def big_road_marks(page: Any) -> int:
    return page.locator("#roads svg.road-big_road path[class^=mk-]").count()


def watch_for(page: Any, code: str) -> None:
    """Note in the page the moment (its clock, the test's own) a card ``code`` shows."""
    page.evaluate(
        """code => {
            window.seen = window.seen || {};
            const look = () => { if (!window.seen[code] && document.querySelector(`#last-round .card[title="${code}"]`))
                                   window.seen[code] = Date.now(); };
            new MutationObserver(look).observe(document.body, {subtree: true, childList: true});
            look();
        }""",
        code,
    )


def current(server: LiveServer, slug: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"{server.url}/api/tables/{slug}/rounds/current", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_a_display_and_a_table_page_watch_a_round_arrive_card_by_card(server: LiveServer, browser: Any) -> None:
    slug = "cards-live"
    table_with_limits(server, slug, "Cards 1")
    server.post(slug, "shoes")
    server.post(slug, "rounds", FIRST)
    with sized_page(browser, "tv") as display, sized_page(browser, "desktop") as table:
        display.goto(f"{server.url}/tables/{slug}/display/")
        table.goto(f"{server.url}/tables/{slug}/")
        for page in (display, table):
            page.wait_for_selector(LIVE)
        marks = big_road_marks(table)
        delays = []
        for count, code in enumerate(ROUND_2, start=1):
            watch_for(display, code)
            posted = time.time() * 1000
            body = server.post(slug, "cards", {"card": code, "round": 2, "index": count})["round"]
            for page in (display, table):
                page.wait_for_function(
                    "code => document.querySelector(`#last-round .card[title='${code}']`)", arg=code, timeout=3000
                )
            delays.append((display.evaluate(f"window.seen[{code!r}]") - posted) / 1000)
            if count == 4:  # player 6 stands, banker 4 draws: the screens say so before the fifth card
                assert display.locator("#last-round .verdict").inner_text() == "Player stands · Banker draws"
                assert table.locator("#last-round .verdict").inner_text() == "Player stands · Banker draws"
                assert cards_shown(display) == ["3H", "3D", "2S", "2C"]
                screenshot(display, "dealing-display-tv", full_page=False)
                assert off_screen(display) == []
                with sized_page(browser, "tv-portrait") as portrait:
                    portrait.goto(f"{server.url}/tables/{slug}/display/")
                    assert cards_shown(portrait) == ["3H", "3D", "2S", "2C"]  # a page that opens mid-round
                    screenshot(portrait, "dealing-display-tv-portrait", full_page=False)
                    assert off_screen(portrait) == []
            if not body["complete"]:
                assert big_road_marks(table) == marks, "the roads wait for the round to be complete"
        assert body["complete"] and body["winner"] == "P"
        table.wait_for_function(
            f"() => document.querySelectorAll('#roads svg.road-big_road path[class^=mk-]').length > {marks}",
            timeout=3000,
        )
        display.wait_for_selector("#last-round .verdict.result-P", timeout=3000)
        assert "Player wins" in display.locator("#last-round .verdict").inner_text()
        print("seconds from each card's post to the display:", [round(d, 3) for d in delays])
        assert statistics.median(delays) <= ARRIVES_WITHIN, delays
        assert max(delays) <= 1.0, delays


def test_a_page_that_reconnects_mid_round_shows_the_round_as_far_as_it_has_gone(
    server: LiveServer, browser: Any
) -> None:
    slug = "cards-reconnect"
    server.table(slug, "Cards 2")
    server.post(slug, "shoes")
    with sized_page(browser, "tv") as display, sized_page(browser, "phone-360") as phone:
        display.goto(f"{server.url}/tables/{slug}/display/")
        phone.goto(f"{server.url}/tables/{slug}/")
        for page in (display, phone):
            page.wait_for_selector(LIVE)
        for count, code in enumerate(ROUND_2[:2], start=1):
            server.post(slug, "cards", {"card": code, "round": 1, "index": count})
        display.wait_for_function("() => document.querySelectorAll('#last-round .card[title]').length === 2")

        server.stop()  # the server restarts mid-round: the round is in the database
        display.wait_for_selector("#connection.connection-offline", timeout=5000)
        server.start()
        status, body = current(server, slug)
        assert status == 200 and (body["round"]["cards"], body["round"]["next"]) == (2, "player")
        server.post(slug, "cards", {"card": ROUND_2[2], "round": 1, "index": 3})  # dealt while the pages reconnect

        for page in (display, phone):
            page.wait_for_selector(LIVE, timeout=15000)
            page.wait_for_function(
                "() => document.querySelectorAll('#last-round .card[title]').length === 3", timeout=5000
            )
            assert cards_shown(page) == ["3H", "3D", "2S"]
        phone.locator("#last-round").scroll_into_view_if_needed()
        screenshot(phone, "dealing-phone-360", full_page=False)

        server.post(slug, "rounds/current/cancel", {"reason": "a card fell face up"})
        for page in (display, phone):
            page.wait_for_function("() => !document.querySelector('#last-round.dealing')", timeout=3000)
        assert "Waiting for the first round" in phone.locator("#last-round").inner_text()
        assert current(server, slug)[0] == 404


def test_the_lobby_shows_each_card_on_the_table_s_card(server: LiveServer, browser: Any) -> None:
    slug = "cards-lobby"
    server.table(slug, "Cards 3")
    server.post(slug, "shoes")
    with sized_page(browser, "desktop") as lobby:
        lobby.goto(f"{server.url}/")
        lobby.wait_for_selector(LIVE)
        line = f"#dealing-{slug}"
        assert lobby.locator(line).is_hidden()
        for count, code in enumerate(ROUND_2[:3], start=1):
            server.post(slug, "cards", {"card": code, "round": 1, "index": count})
        lobby.wait_for_function(f"() => document.querySelector('{line}').textContent.includes('3♦')", timeout=3000)
        assert lobby.locator(line).is_visible()
        text = lobby.locator(line).inner_text()
        assert "Round 1" in text and "3♥" in text and "2♠" in text
        screenshot(lobby, "dealing-lobby-desktop", full_page=False)
