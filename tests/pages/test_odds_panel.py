"""Shoe odds in the product: computed after each round off the request path, stored on
the round, shown beside the full-shoe values; and the Payouts & odds page."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.test import Client

from tables import selectors, services
from tables.background import runner as background
from tables.background.odds import ODDS_TASK, round_odds_compute
from tables.background.runner import ThreadRunner
from tables.game.bets import BetType
from tables.game.cards import Card
from tables.game.odds import Composition, shoe_odds
from tables.labels import pays_text
from tables.models import Round
from tables.pages import fragments
from tests.html import find, find_all
from tests.rounds import SEED

SECOND = {"player": ["7H", "KS"], "banker": ["2C", "3D", "7S"]}


def cards(*codes: str) -> list[Card]:
    return [Card.parse(c) for c in codes]


def odds_rows(page: str) -> str:
    """The odds panel's rows (not the edge's look beside them, #odds-edge)."""
    return find(page, "tbody", id="odds-rows").html


@pytest.mark.django_db(transaction=True)
def test_each_round_stores_the_exact_odds_of_the_shoe_left_after_it(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)
    second = services.round_record(table=table, **SECOND).round
    second.refresh_from_db()
    left = Composition.full(8).without(cards("AH", "3S", "5D", "JC", "2H", "AD", "7H", "KS", "2C", "3D", "7S"))
    exact = shoe_odds(left, table.get_paytable())
    assert second.odds["cards"] == 405
    assert second.odds["returns"]["banker"] == round(float(exact.bets[BetType.BANKER].expected_return), 8)
    assert second.odds["returns"]["tie"] == round(float(exact.bets[BetType.TIE].expected_return), 8)


@pytest.mark.django_db(transaction=True)
def test_the_burn_card_turned_over_for_all_to_see_leaves_the_shoe_the_cards_it_burns_stay_unknown(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.shoe_burn(table=table, card="9H")  # shown, then nine cards burned face down
    first = services.round_record(table=table, **SEED).round
    first.refresh_from_db()
    left = Composition.full(8).without(cards("9H", "AH", "3S", "5D", "JC", "2H", "AD"))
    exact = shoe_odds(left, table.get_paytable())
    assert first.odds["cards"] == 416 - 7  # the nine burned face down still count: nobody saw them
    assert first.odds["returns"]["player_pair"] == round(float(exact.bets[BetType.PLAYER_PAIR].expected_return), 8)
    assert first.odds["returns"]["banker"] == round(float(exact.bets[BetType.BANKER].expected_return), 8)


def test_before_the_first_round_the_odds_panel_shows_the_shoe_without_its_burn_card(
    client: Client, training_room
) -> None:
    table, _ = training_room
    services.shoe_start(table=table)
    services.shoe_burn(table=table, card="KS")
    page = client.get("/tables/baccarat-1/").content.decode()
    exact = shoe_odds(Composition.full(8).without(cards("KS")), table.get_paytable())
    full = shoe_odds(Composition.full(8), table.get_paytable())
    tie, tie_full = (float(o.bets[BetType.TIE].expected_return) for o in (exact, full))
    assert "without the burn card · 415 cards left" in page
    assert f"{tie * 100:+.3f}%".replace("-", "−") in page and round(tie, 5) != round(tie_full, 5)


def test_once_a_round_has_its_odds_a_page_reads_them_and_computes_no_opening_shoe(
    client: Client, training_room
) -> None:
    table, _ = training_room
    services.shoe_start(table=table)
    services.shoe_burn(table=table, card="QD")
    round_ = services.round_record(table=table, **SEED).round
    returns = {bet.value: -0.01 for bet in BetType}
    Round.objects.filter(pk=round_.pk).update(odds={"cards": 408, "returns": returns, "no_commission_banker": -0.01})
    with mock.patch("tables.pages.odds_panel.opening_odds") as opening:
        assert "408 cards left" in client.get("/tables/baccarat-1/").content.decode()
    assert not opening.called, "a burn card's enumeration belongs to the first round's page only"


@pytest.mark.django_db(transaction=True)
def test_a_voided_rounds_cards_stay_out_of_the_shoe(baccarat_1, staff_reviewer) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    first = services.round_record(table=table, **SEED).round
    services.round_void(round_=first, reason="misdeal", user=staff_reviewer)
    second = services.round_record(table=table, **SECOND).round
    second.refresh_from_db()
    assert second.odds["cards"] == 416 - 11


@pytest.mark.django_db(transaction=True)
def test_a_retried_task_leaves_the_stored_odds_alone(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    round_ = services.round_record(table=table, **SEED).round
    Round.objects.filter(pk=round_.pk).update(odds={"cards": 1, "returns": {}, "no_commission_banker": None})
    assert round_odds_compute(round_pk=round_.pk) == 0
    assert Round.objects.get(pk=round_.pk).odds["cards"] == 1


@pytest.mark.django_db(transaction=True)
def test_odds_lost_with_their_task_are_caught_up_by_the_next_round(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    first = services.round_record(table=table, **SEED).round
    Round.objects.filter(pk=first.pk).update(odds=None)  # its task never ran: the broker was down
    second = services.round_record(table=table, **SECOND).round
    odds = dict(Round.objects.filter(pk__in=[first.pk, second.pk]).values_list("number", "odds"))
    assert odds[1]["cards"] == 410 and odds[2]["cards"] == 405


@pytest.mark.django_db(transaction=True)
def test_rounds_recorded_while_an_odds_task_waits_are_computed_by_that_task(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    with mock.patch("tables.background.odds.enqueue") as enqueue:  # the worker is busy: nothing runs
        rounds = [services.round_record(table=table, **hand).round for hand in (SEED, SECOND, SEED)]
    [(task, job, round_pk)] = [call.args for call in enqueue.call_args_list]
    assert (task, round_pk) == (ODDS_TASK, rounds[0].pk)
    assert job(round_pk) is None  # the one queued task
    assert [r.odds["cards"] for r in Round.objects.order_by("number")] == [410, 405, 399]
    # With that task started, the next round queues a task of its own.
    with mock.patch("tables.background.odds.enqueue") as enqueue:
        services.round_record(table=table, **SECOND)
    assert enqueue.call_count == 1


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_odds_are_computed_on_a_worker_thread(baccarat_1) -> None:
    background.install(ThreadRunner())
    table, _ = baccarat_1
    services.shoe_start(table=table)
    round_ = services.round_record(table=table, **SEED).round
    background.runner().drain()
    assert Round.objects.get(pk=round_.pk).odds["cards"] == 410


def test_the_odds_panel_shows_each_bet_now_beside_the_full_shoe(client: Client, training_room) -> None:
    table, _ = training_room
    services.shoe_start(table=table)
    round_ = services.round_record(table=table, **SEED).round  # on_commit does not run here: no odds yet
    page = client.get("/tables/baccarat-1/").content.decode()
    assert find_all(page, "section", id="odds") and "computing round 1" in page
    assert find_all(page, "script", id="chart-odds", type="application/json")
    returns = {bet.value: -0.01 for bet in BetType} | {"tie": 0.0123}
    Round.objects.filter(pk=round_.pk).update(odds={"cards": 410, "returns": returns, "no_commission_banker": -0.01})
    page = client.get("/tables/baccarat-1/").content.decode()
    assert "after round 1" in page and "410 cards left" in page and "computing" not in page
    # The tie's edge turned positive: highlighted, with its full-shoe value beside it.
    edges = find_all(odds_rows(page), "tr", class_="edge-positive")
    assert len(edges) == 1
    tie = find_all(edges[0].html, "td")[0]
    assert tie.text == "Tie edge" and find_all(tie.html, "span", cls="tag")  # the bet, tagged
    assert "+1.230%" in page and "−14.360%" in page


def test_the_payouts_and_odds_page_shows_the_published_return_tables(client: Client, baccarat_1) -> None:
    page = client.get("/tables/baccarat-1/odds/").content.decode()
    assert "2,292,252,566,437,888" in page and "4,998,398,275,503,360" in page
    assert "Banker (No Commission)" in page and "RTP 98.94%" in page and "RTP 89.64%" in page
    assert "18,409,431,764,992" in page and "86,320" in page  # Player Bonus win by 9; pair combinations
    assert client.get("/tables/nowhere/odds/").status_code == 404


def test_pays_are_written_one_way_on_every_page_as_the_seeds_paytable_writes_them(client: Client, baccarat_1) -> None:
    assert [pays_text(p) for p in (1, 0.95, 8, 3.5, 11, 0.5, -1, 0, None)] == [
        "1:1", "0.95:1", "8:1", "7:2", "11:1", "1:2", "−1", "0", "–",
    ]  # fmt: skip
    page = client.get("/tables/baccarat-1/odds/").content.decode()
    pays = {cell.text for cell in find_all(page, "td", **{"data-label": "Pays"})}
    assert {"0.95:1", "1:1", "8:1", "7:2"} <= pays, pays  # Banker, Player, Tie, a natural
    assert not pays & {"0.95", "3.5", "19:20"}


def test_a_side_bet_flagged_as_the_players_edge_is_drawn_on_the_odds_chart_too(client: Client, training_room) -> None:
    table, _ = training_room
    services.shoe_start(table=table)
    round_ = services.round_record(table=table, **SEED).round
    returns = {bet.value: -0.01 for bet in BetType} | {"lucky_six": 0.021}
    Round.objects.filter(pk=round_.pk).update(odds={"cards": 410, "returns": returns, "no_commission_banker": -0.01})
    page = client.get("/tables/baccarat-1/").content.decode()
    [edge] = find_all(odds_rows(page), "tr", class_="edge-positive")
    flagged = find_all(edge.html, "td")[0].text.removesuffix(" edge")
    [script] = find_all(page, "script", id="chart-odds")
    lines = json.loads(script.text)["data"]
    drawn = [line["name"] for line in lines if line.get("visible", True)]
    assert flagged == "Lucky Six" and flagged in drawn, drawn
    assert {"Banker", "Player", "Tie", "Player Pair"} <= set(drawn), "the usual bets stay"
    assert len(drawn) == 5 and len(lines) == len(returns), "the other side bets' lines wait, hidden"


def test_a_bet_that_becomes_or_stops_being_the_players_edge_is_pushed_as_a_flag_on_its_row(training_room) -> None:
    table, _ = training_room
    services.shoe_start(table=table)
    rounds = [services.round_record(table=table, **hand).round for hand in (SEED, SECOND, SEED, SECOND)]

    def odds_push_with_tie(number: int, tie: float) -> str:
        """The odds push to a page that shows the round before, once round ``number``'s are stored."""
        since = selectors.table_version(selectors.shoe_find(table=table, which="current"))
        returns = {bet.value: -0.01 for bet in BetType} | {"tie": tie}
        Round.objects.filter(pk=rounds[number - 1].pk).update(odds={"cards": 400, "returns": returns})
        return fragments.table_odds_push_html(table, since=since)[0]

    odds_push_with_tie(1, -0.14)
    for number, tie, flag in ((2, 0.0123, "1"), (3, -0.12, "0")):  # the player's edge, then no longer
        push = odds_push_with_tie(number, tie)
        [cells] = find_all(push, "template", hx_swap_oob="innerHTML:#odds-rows")
        assert cells.attrs["data-edges"] == f"or3 {flag}"  # the Tie's row (the third)
        assert "on3" in cells.attrs["data-cells"].split() and not find_all(push, "tr")  # its numbers; no row whole
    quiet = odds_push_with_tie(4, -0.13)  # no bet's edge changed: no flags
    assert "data-edges" not in find(quiet, "template", hx_swap_oob="innerHTML:#odds-rows").attrs


def test_the_look_a_flag_gives_a_row_is_the_panels_own_in_the_pages_language(client: Client, training_room) -> None:
    page = client.get("/tables/baccarat-1/", HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    [look] = find_all(page, "template", id="odds-edge")  # beside the rows, none of them
    [row] = find_all(look.html, "tr", class_="edge-positive")
    assert row.attrs["title"] != "The player has the edge on this bet now" and find_all(row.html, "span", cls="tag")
