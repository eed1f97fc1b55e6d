"""Seen in a real browser: the lobby's good road settings switch a pattern off for
highlighting, and the browser remembers it."""

from __future__ import annotations

from typing import Any

from roads.patterns import PATTERNS

from .browsing import LiveServer, page_width, screenshot, sized_page

LIVE = "#connection.connection-live"


def natural(winner: str, n: int) -> dict[str, list[str]]:
    """A natural 9 against 5 (no third cards), the suit turning each round so no card is
    dealt more often than the shoe's eight decks hold it."""
    suit = "HDCS"[n % 4]
    nine, five = [f"9{suit}", f"K{suit}"], [f"2{suit}", f"3{suit}"]
    return {"player": five, "banker": nine} if winner == "B" else {"player": nine, "banker": five}


def deal(server: LiveServer, slug: str, results: str) -> None:
    server.table(slug, slug.replace("-", " ").title())
    server.post(slug, "shoes")
    for n, winner in enumerate(results):
        server.post(slug, "rounds", natural(winner, n))


def card_class(page: Any, slug: str) -> str:
    return page.locator(f"#table-{slug}").get_attribute("class")


def badge_class(page: Any, slug: str, pattern: str) -> str:
    return page.locator(f"#table-{slug} .badge[data-pattern={pattern}]").get_attribute("class")


def test_a_pattern_switched_off_stops_highlighting_and_stays_off_after_a_reload(server: LiveServer, page: Any) -> None:
    deal(server, "long-road", "BBBB")  # Long Banker
    deal(server, "jumps", "BBPPBBPP")  # Clap Clap Road and Double Jump
    page.goto(server.url + "/")
    page.wait_for_selector(LIVE)
    assert card_class(page, "long-road") == card_class(page, "jumps") == "table-card has-good-road"
    assert not page.locator("#road-settings input[data-pattern=long_banker]").is_visible()  # folded away

    page.click("#road-settings summary")
    page.uncheck("#road-settings input[data-pattern=long_banker]")
    page.uncheck("#road-settings input[data-pattern=double_jump]")
    assert card_class(page, "long-road") == "table-card"  # its only good road is off
    assert badge_class(page, "long-road", "long_banker") == "badge badge-off"
    assert card_class(page, "jumps") == "table-card has-good-road"  # Clap Clap Road is still on
    assert badge_class(page, "jumps", "double_jump") == "badge badge-off"
    assert badge_class(page, "jumps", "clap_clap_road") == "badge"
    page.check("input[name=good]")  # "Good roads only" counts the patterns switched on
    assert not page.locator("#table-long-road").is_visible() and page.locator("#table-jumps").is_visible()
    page.select_option("select[name=pattern]", "long_banker")  # a pattern asked for by name still shows
    assert page.locator("#table-long-road").is_visible()

    page.goto(server.url + "/")
    page.wait_for_selector(LIVE)
    off = page.eval_on_selector_all(
        "#road-settings input[data-pattern]", "boxes => boxes.filter(b => !b.checked).map(b => b.dataset.pattern)"
    )
    assert off == ["long_banker", "double_jump"]
    assert card_class(page, "long-road") == "table-card"
    assert badge_class(page, "jumps", "double_jump") == "badge badge-off"

    # A live update of the card keeps the settings: a fifth Banker redraws it.
    server.post("long-road", "rounds", natural("B", 4))
    page.wait_for_selector("#table-long-road .facts >> text=5")
    assert card_class(page, "long-road") == "table-card"
    assert badge_class(page, "long-road", "long_banker") == "badge badge-off"

    page.click("#road-settings summary")
    page.check("#road-settings input[data-pattern=long_banker]")
    assert card_class(page, "long-road") == "table-card has-good-road"
    assert page.evaluate("localStorage.getItem('goodRoadsOff')") == '["double_jump"]'


def test_the_settings_fit_a_phone_and_a_desktop_with_a_picture_of_each_pattern(
    server: LiveServer, browser: Any
) -> None:
    deal(server, "slope", "BPPBBBPPPP")  # Long Player and Slope Road
    for size in ("phone-390", "desktop"):
        with sized_page(browser, size) as page:
            page.goto(server.url + "/")
            page.wait_for_selector(LIVE)
            page.click("#road-settings summary")
            pictures = page.eval_on_selector_all(
                "#road-settings .road-setting",
                """labels => labels.map(l => { const svg = l.querySelector('svg.road').getBoundingClientRect();
                    const box = l.getBoundingClientRect();
                    return {pattern: l.querySelector('input').dataset.pattern, width: svg.width, height: svg.height,
                            inside: svg.left >= box.left && svg.right <= box.right, tall: box.height}; })""",
            )
            assert [p["pattern"] for p in pictures] == [p.key for p in PATTERNS]
            for picture in pictures:  # four rows of 12 px, two columns or more
                assert picture["height"] == 48 and picture["width"] >= 24 and picture["inside"], picture
                assert picture["tall"] >= 44, picture  # a thumb's target
            assert page_width(page) <= page.viewport_size["width"]
            if size.startswith("phone"):
                summary = page.locator("#road-settings summary").bounding_box()
                assert summary["height"] >= 44, summary  # a thumb's target
            page.uncheck("#road-settings input[data-pattern=long_player]")  # seen dimmed on the card
            assert badge_class(page, "slope", "long_player") == "badge badge-off"
            screenshot(page, f"good-road-settings-{size}")
