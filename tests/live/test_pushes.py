"""What a round pushes to the pages of its table: to the pages that show the state pushed
before, only what changed since, and little of it."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.asgi import application
from roads import alerts
from tables import selectors, services
from tables.background import odds
from tables.game.shoe import DealingShoe
from tables.models import Round, Table
from tables.page_version import PageVersion
from tables.pages import fragments
from tests.html import find, find_all
from tests.road_marks import marks
from tests.rounds import SEED
from tests.shuffled import dealt, shuffled_shoe

BANKER = {"player": ["2H", "3D"], "banker": ["9S", "KH"]}  # Banker natural 9-5
TIE = {"player": ["2C", "5C"], "banker": ["3D", "4D"]}  # 7-7


class TopLevel(HTMLParser):
    """The top-level elements of a push, the ones htmx swaps in: (tag, attributes)."""

    VOID = {"br", "img", "input", "meta", "link", "hr", "wbr"}

    def __init__(self, html: str) -> None:
        super().__init__()
        self.depth, self.elements = 0, []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.elements.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        self.depth -= 1


def top_level(html: str) -> list[tuple[str, dict[str, str | None]]]:
    return TopLevel(html).elements


def seeded_shoe() -> DealingShoe:
    """A shuffled 8-deck shoe, the same every run, that lasts 83 rounds."""
    return shuffled_shoe(1)


def win(winner: str, i: int) -> dict[str, list[str]]:
    """Two-card naturals for ``winner`` ("B" or "P"), their suits turning with ``i`` so
    that a long run of them never deals a card more often than 8 decks hold it."""
    a, b, zero = "SHDC"[i % 4], "SHDC"[(i + i // 4) % 4], "TJQK"[i // 16 % 4]
    low, high = {"player": [f"2{a}", f"3{b}"], "banker": [f"9{b}", f"{zero}{a}"]}.values()  # 5 against 9
    return {"player": low, "banker": high} if winner == "B" else {"player": high, "banker": low}


def state(table: Table) -> tuple[object, str]:
    shoe = selectors.shoe_find(table=table, which="current")
    return shoe, selectors.table_version(shoe)


def record(table: Table, cards: dict[str, list[str]]) -> Round:
    return services.round_record(table=table, **cards).round


def pushed_for_a_round(table: Table, cards: DealingShoe) -> tuple[str, str, str]:
    """A round's push to the pages that showed the state before it, odds included, then
    its odds once computed; and the one message both would be had its odds been stored
    by the time the round was pushed."""
    _, since = state(table)
    [last] = dealt(table, cards, 1)
    shoe, version = state(table)
    delta = fragments.table_push_html(table, shoe, version, since=since)
    odds.round_odds_compute(round_pk=last.pk)
    odds_push, _ = fragments.table_odds_push_html(table, since=version)
    shoe, now = state(table)
    return delta, odds_push, fragments.table_push_html(table, shoe, now, since=since)


def test_a_round_pushes_at_most_5_kib_to_a_page_showing_an_80_round_shoe_odds_included_and_3_25_kib_a_lobby_card(
    training_room,
) -> None:
    table, _ = training_room
    table.limits = {"player": [10, 5000], "banker": [10, 5000], "tie": [5, 500]}
    table.save()
    services.shoe_start(table=table)
    cards = seeded_shoe()
    odds.round_odds_compute(round_pk=dealt(table, cards, 59)[-1].pk)  # every round's odds, as pages saw them
    delta, odds_push, one = pushed_for_a_round(table, cards)  # round 60
    assert find_all(delta, "section", id="game-info", data_since="1:59:0:59:0")  # a delta, not the whole part
    assert not find_all(delta, "*", id="history")
    # 6.6 KiB and 7.1 KiB (the odds panel whole, its chart's every point) before.
    assert len(delta.encode()) + len(odds_push.encode()) <= 5 * 1024
    assert find_all(one, "span", id="odds-when", data_odds="59") and len(one.encode()) <= 5 * 1024  # one message
    dealt(table, cards, 19)
    odds.round_odds_compute(round_pk=Round.objects.order_by("-pk").first().pk)
    delta, odds_push, one = pushed_for_a_round(table, cards)  # round 80
    # This round makes two side bets the player's edge: a flag each, not their rows whole,
    # and their lines, on the chart all along but hidden, are shown: no point sent again.
    # 3.2 KiB of odds before, rows and lines whole, then 1.7 KiB with each line's points.
    [cells] = find_all(odds_push, "template", hx_swap_oob="innerHTML:#odds-rows")
    assert cells.attrs["data-edges"].split()[1::2] == ["1", "1"] and not find_all(odds_push, "tr")
    [chart] = find_all(odds_push, "script", id="chart-odds")
    assert [line["visible"] for line in json.loads(chart.text)["set"]] == [True, True]
    assert len(odds_push.encode()) <= 1024
    assert len(delta.encode()) + len(odds_push.encode()) <= 5 * 1024 and len(one.encode()) <= 5 * 1024
    shoe, version = state(table)
    whole = fragments.table_push_html(table, shoe, version, since=None)
    # A resync: 69 KiB before; and 5 KiB more than at its least (31 KiB) for the side
    # bets' hidden lines, every point of which a page keeps so that no round sends them.
    assert find_all(whole, "section", id="history") and len(whole.encode()) <= 37 * 1024
    for card in fragments.lobby_cards_html():
        assert len(card.encode()) <= 3.25 * 1024  # 3 KiB before it carried the next round's returns


def test_a_rounds_odds_push_carries_only_the_numbers_that_changed_and_the_charts_new_points(training_room) -> None:
    table, _ = training_room
    services.shoe_start(table=table)
    cards = seeded_shoe()
    odds.round_odds_compute(round_pk=dealt(table, cards, 20)[-1].pk)
    _, since = state(table)
    odds.round_odds_compute(round_pk=dealt(table, cards, 1)[-1].pk)
    push, version = fragments.table_odds_push_html(table, since=since)
    shoe = selectors.shoe_find(table=table, which="current")
    rounds = list(shoe.rounds.order_by("-number"))
    before, now = rounds[1].odds["returns"], rounds[0].odds["returns"]
    moved = [bet for bet in now if round(100 * now[bet], 3) != round(100 * before[bet], 3)]
    # The panel is not sent whole: its words, the changed numbers (each by its cell's id), the chart's new points.
    assert not find_all(push, "section", id="odds") and not find_all(push, "tr")
    assert find(push, "span", id="odds-when", data_version=str(version), data_odds="20")
    [cells] = find_all(push, "template", hx_swap_oob="innerHTML:#odds-rows")
    assert len(moved) > 0 and len(cells.attrs["data-cells"].split()) == 2 * 2 * len(
        moved
    )  # "id text" of its "shoe left" and its "change"
    chart = json.loads(find(push, "script", id="chart-odds").text)
    assert len(chart["+y"]) == len(now) and "data" not in chart  # one point more on each line, hidden or not
    # Pushed already: nothing more; from an unknown state: the whole panel.
    assert fragments.table_odds_push_html(table, since=version)[0] == ""
    assert find_all(fragments.table_odds_push_html(table, since=None)[0], "section", id="odds")


def test_a_delta_names_its_state_first_and_adds_the_rounds_rows_and_road_marks(training_room) -> None:
    table, _ = training_room
    services.shoe_start(table=table)
    record(table, SEED)
    record(table, SEED)
    _, since = state(table)
    new = record(table, BANKER)
    shoe, version = state(table)
    delta = fragments.table_push_html(table, shoe, version, since=since)
    elements = top_level(delta)
    # The first element names the state it brings the page to, and the state it starts
    # from; the others go with it, and name none of their own.
    assert elements[0][1]["id"] == "game-info"  # where a client looks for the state a push shows
    assert (elements[0][1]["data-version"], elements[0][1]["data-since"]) == (str(version), str(since))
    assert not any("data-version" in attrs or "data-since" in attrs for _, attrs in elements[1:])
    assert elements[1] == ("dd", {"class": "mono", "id": "game-round-id"})  # the round's ID, by its cell
    rows = elements[2]
    assert rows == ("template", rows[1]) and rows[1]["hx-swap-oob"] == "afterbegin:#history-rows"
    assert len(find_all(delta, "tr")) == 1 and new.round_id in delta
    bead = next(attrs for tag, attrs in elements if attrs.get("hx-swap-oob") == "beforeend:#marks-bead_plate")
    assert "data-view" not in bead
    assert marks(delta, "bead-B") == [(0, 2)] and marks(delta, "ring-B") == [(1, 0)] and not marks(delta, "bead-P")
    ids = [attrs.get("id") for _, attrs in elements]
    assert {"last-round", "chart-shares", "chart-running", "odds-pending", "history-more"} <= set(ids)
    stats = find(delta, "template", hx_swap_oob="innerHTML:#stat-counts").attrs["data-cells"].split()  # a Banker in 3
    assert stats[:4] == ["sn1", "1", "sp1", "33.3%"] and stats[-2:] == ["sn7", "3"]
    assert "computing round 3" in delta  # its odds come in a push of their own


def test_a_delta_widens_a_roads_view_with_the_columns_it_adds_keeping_the_first(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for i in range(13):  # alternating: a column of the Big Road each
        record(table, win("BP"[i % 2], i))
    _, since = state(table)
    record(table, win("P", 13))  # a 14th round: the Bead Plate's 3rd column, no move
    shoe, version = state(table)
    delta = fragments.table_push_html(table, shoe, version, since=since)
    assert find_all(delta, "svg", hx_swap_oob="beforeend:#marks-bead_plate")
    assert not find_all(delta, "*", data_view="0 0 280 120")
    for i in range(14, 30):
        since = version
        record(table, win("BP"[i % 2], i))
        shoe, version = state(table)
    delta = fragments.table_push_html(table, shoe, version, since=since)
    # 30 columns of Big Road: the 30th and the empty one after it need a 31st column in
    # view, added at the right; the shoe's first column stays (the road box scrolls).
    big = find(delta, "svg", hx_swap_oob="beforeend:#marks-big_road")
    assert big.attrs.get("data-view") == "0 0 620 120"


def test_a_delta_draws_a_road_again_when_a_round_changes_a_mark_it_has(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for cards in (SEED, TIE, TIE):
        record(table, cards)
    _, since = state(table)
    record(table, TIE)  # a third tie: the count on the Player's ring goes from 2 to 3
    shoe, version = state(table)
    delta = fragments.table_push_html(table, shoe, version, since=since)
    big = next(attrs for tag, attrs in top_level(delta) if attrs.get("id") == "road-big_road")
    assert "data-version" not in big  # the game info, first, names the state
    assert [ties.text for ties in find_all(delta, "text", cls="ties", x="10", y="13.5")] == ["3"]
    assert "#marks-big_road" not in delta


def test_pages_get_the_whole_live_part_after_a_void_a_new_shoe_or_from_a_state_a_delta_cannot_start_from(
    baccarat_1,
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    _, empty = state(table)
    first = record(table, SEED)
    _, one = state(table)
    record(table, BANKER)
    shoe, version = state(table)

    def whole(since: PageVersion | None) -> bool:
        html = fragments.table_push_html(table, shoe, version, since=since)
        return bool(find_all(html, "section", id="history")) and "data-since" not in html

    assert not whole(one) and not whole(empty)  # an empty shoe's history takes its first rows too
    assert whole(None) and whole(version)  # nothing to start from, or nothing new
    assert whole(PageVersion.parse("2:1:0:1"))  # another shoe
    reviewer = User.objects.create_user("reviewer", is_staff=True)
    services.round_void(round_=first, reason="scanner fault", user=reviewer)
    shoe, version = state(table)
    assert whole(one)  # the void changes a round the page shows
    services.shoe_start(table=table)
    shoe, version = state(table)
    assert whole(one)


def test_a_page_is_sent_the_rounds_of_one_shoe_only_up_to_the_rows_its_history_shows(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    record(table, SEED)
    _, since = state(table)
    for i in range(fragments.HISTORY_ROWS):
        record(table, win("B", i))
    shoe, version = state(table)
    delta = fragments.table_push_html(table, shoe, version, since=since)
    assert find_all(delta, "section", id="game-info", data_since=str(since))
    record(table, win("P", 0))
    shoe, version = state(table)
    assert "data-since" not in fragments.table_push_html(table, shoe, version, since=since)


ORIGIN = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]  # a page of this site


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_open_page_gets_the_whole_part_then_the_changes_of_each_round() -> None:
    await get_channel_layer().flush()
    table = await database_sync_to_async(lambda: services.table_create(slug="baccarat-1", name="Baccarat 1")[0])()
    await database_sync_to_async(services.shoe_start)(table=table)
    page = WebsocketCommunicator(application, "/ws/tables/baccarat-1/", headers=ORIGIN)
    assert (await page.connect())[0]
    await database_sync_to_async(record)(table, SEED)
    first, first_odds = await page.receive_from(timeout=5), await page.receive_from(timeout=5)
    assert find_all(first, "section", id="history") and "data-since" not in first  # from a page with no round: whole
    assert find_all(first_odds, "span", id="odds-when", data_odds="0") and not find_all(first_odds, "*", id="history")
    await database_sync_to_async(record)(table, BANKER)
    second = await page.receive_from(timeout=5)
    assert find_all(second, "section", id="game-info", data_since="1:1:0:1:0")  # since the round's push and its odds
    assert not find_all(second, "*", id="history")
    # A page that missed it asks for what it lacks, and gets the whole part.
    await page.send_to(text_data=json.dumps({"have": {"baccarat-1": "1:1:0:1:0"}}))
    resync = await page.receive_from(timeout=5)
    while "data-since" in resync or not find_all(resync, "section", id="history"):
        resync = await page.receive_from(timeout=5)  # the odds of round 2 may come first
    assert find_all(resync, "section", id="history")
    await page.disconnect()


def test_a_delta_reads_the_database_a_fixed_number_of_times_for_any_shoe_length(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    record(table, SEED)

    def queries() -> int:
        _, since = state(table)
        record(table, win("P", len(Round.objects.all())))
        shoe, version = state(table)
        with CaptureQueriesContext(connection) as delta:
            delta_html = fragments.table_push_html(table, shoe, version, since=since)
            assert find_all(delta_html, "section", id="game-info", data_since=str(since))
        return len(delta)

    short = queries()
    for i in range(12):
        record(table, win("B", i))
    assert queries() == short


def test_an_odds_push_reads_the_database_a_fixed_number_of_times_for_any_shoe_length(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)

    cards = seeded_shoe()

    def queries() -> int:
        odds.round_odds_compute(round_pk=dealt(table, cards, 1)[-1].pk)
        with CaptureQueriesContext(connection) as read:
            assert find_all(fragments.table_odds_html(table), "section", id="odds")
        return len(read)

    assert queries() == 2, "the shoe and its rounds: no round's ID, nor the version, read again"
    dealt(table, cards, 12)
    assert queries() == 2


def test_the_version_of_loaded_rounds_is_the_version_the_database_gives(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    cards = seeded_shoe()
    rounds = dealt(table, cards, 5)
    odds.round_odds_compute(round_pk=rounds[2].pk)
    dealt(table, cards, 2)
    services.round_void(round_=rounds[1], reason="card dropped", user=None)
    shoe = selectors.shoe_find(table=table, which="current")
    odds_after = max(r.number for r in shoe.rounds.all() if r.odds is not None)
    expected = f"1:7:1:{odds_after}:0"  # shoe 1, 7 rounds, 1 voided, the last with its odds stored, no card revealed
    assert selectors.table_version_of(shoe, fragments.pushed_rounds(shoe)) == selectors.table_version(shoe)
    assert str(selectors.table_version(shoe)) == expected


def test_a_delta_that_starts_from_the_roads_the_last_one_drew_is_the_one_drawn_anew(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    cards = seeded_shoe()
    dealt(table, cards, 3)
    _, since = state(table)
    for _ in range(12):
        dealt(table, cards, 1)
        shoe, version = state(table)
        with mock.patch("tables.pages.fragments.roads_of", wraps=fragments.roads_of) as drawn:
            kept = fragments.table_push_html(table, shoe, version, since=since)
        assert drawn.call_count == (0 if since.round > 3 else 1)  # the roads the delta before drew
        fragments.forget_drawn()
        assert kept == fragments.table_push_html(table, shoe, version, since=since)
        since = version


def test_a_delta_after_a_void_or_on_another_shoe_draws_its_roads_anew(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    cards = seeded_shoe()
    first = dealt(table, cards, 4)[0]
    shoe, since = state(table)
    dealt(table, cards, 1)
    fragments.table_push_html(table, shoe, state(table)[1], since=since)  # draws the roads of 5 rounds
    services.round_void(round_=first, reason="misdeal", user=None)
    _, since = state(table)
    dealt(table, cards, 1)
    shoe, version = state(table)
    with mock.patch("tables.pages.fragments.roads_of", wraps=fragments.roads_of) as drawn:
        kept = fragments.table_push_html(table, shoe, version, since=since)
    assert drawn.call_count == 1  # not the roads drawn before the void
    fragments.forget_drawn()
    assert kept == fragments.table_push_html(table, shoe, version, since=since)


def test_a_lobby_card_that_goes_on_from_the_roads_the_card_before_drew_is_the_one_drawn_anew(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    cards = seeded_shoe()
    for number in range(1, 13):
        dealt(table, cards, 1)
        shoe = selectors.table_open_shoe(table=table)
        with mock.patch("roads.alerts.Roads", wraps=alerts.Roads) as built:
            kept = fragments.lobby_card_html(table, shoe)
        fragments.forget_drawn()
        assert kept == fragments.lobby_card_html(table, shoe)
        assert built.call_count == (number == 1)  # after the first, the roads the card before drew


@pytest.mark.django_db(transaction=True)
def test_a_new_shoe_is_pushed_as_a_delta_to_the_pages_that_show_the_shoe_before_as_it_ended(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for cards in (SEED, BANKER, TIE, BANKER):
        record(table, cards)
    ended = selectors.table_version(selectors.shoe_find(table=table, which="current"))
    services.shoe_start(table=table)
    shoe = selectors.shoe_find(table=table, which="current")
    version = selectors.table_version(shoe)
    started = fragments.table_push_html(table, shoe, version, since=ended)
    assert find_all(started, "section", id="game-info", data_version=str(version), data_since=str(ended))
    assert len(started.encode()) <= 5 * 1024, "a shoe's start pushed whole was 14.2 KiB"
    for road in fragments.TABLE_ROADS:  # emptied, not drawn again
        assert find_all(started, "svg", hx_swap_oob=f"innerHTML:#marks-{road}")
    assert find_all(started, "span", id="odds-when", data_odds=str(ended.odds)), "odds from the shoe before's last"
    # From any other state of the shoe before (the pages missed its end), the whole part.
    behind = PageVersion(ended.shoe, ended.round - 1, 0, ended.round - 1, 0)
    assert "data-since" not in fragments.table_push_html(table, shoe, version, since=behind)
    # Once a round of the new shoe is dealt, its pushes are deltas of the new shoe.
    record(table, SEED)
    assert "data-since" not in fragments.table_push_html(table, shoe, selectors.table_version(shoe), since=ended)
