"""Card by card from a card-reading shoe (issue 34): POST /api/tables/{slug}/cards, the
round in progress at GET .../rounds/current, and a misdeal cancelled."""

from __future__ import annotations

import queue

import pytest
from django.test import Client

from tables import services
from tables.models import Round, RoundCancel, RoundInProgress, Shoe
from tests.concurrency import at_once
from tests.dealers import Dealer
from tests.rounds import SEED

# SEED dealt card by card: P A♥, B J♣, P 3♠, B 2♥, then P 5♦ and B A♦ (both draw).
SEED_ORDER = ["AH", "JC", "3S", "2H", "5D", "AD"]


def errors(response) -> list[tuple[str | None, str]]:
    return [(e["field"], e["message"]) for e in response.json()["errors"]]


def card(system: Dealer, code: str | None = None, **extra) -> object:
    return system.post("cards", {**({"card": code} if code else {}), **extra})


def test_each_card_answers_the_round_so_far_and_whose_card_is_next(open_dealer: Dealer) -> None:
    response = card(open_dealer, "9H", round=1, index=1)
    assert response.status_code == 201
    assert response.json()["round"] == {
        "shoe": 1,
        "number": 1,
        "complete": False,
        "player": ["9H"],
        "banker": [],
        "next": "banker",
        "player_score": 9,
        "banker_score": None,
        "cards": 1,
        "calls": [],
        "dealer": "Anna",
    }
    body = card(open_dealer, "3C", round=1, index=2).json()["round"]
    assert (body["player"], body["banker"], body["next"]) == (["9H"], ["3C"], "player")
    body = card(open_dealer, "KS", round=1, index=3).json()["round"]
    assert (body["player_score"], body["next"]) == (9, "banker")
    body = card(open_dealer, "2D", round=1, index=4).json()["round"]  # a natural 9: the round is over
    assert (body["player_score"], body["banker_score"], body["next"], body["complete"]) == (9, 5, None, True)


def test_the_card_that_completes_a_round_answers_the_round_as_a_whole_round_post_does(open_dealer: Dealer) -> None:
    for index, code in enumerate(SEED_ORDER[:-1], start=1):
        assert card(open_dealer, code, round=1, index=index).json()["round"]["complete"] is False
    last = card(open_dealer, SEED_ORDER[-1], round=1, index=6)
    assert last.status_code == 201
    body = last.json()["round"]
    assert body["complete"] is True and body["next"] is None
    stored = Round.objects.get()
    assert body["id"] == stored.round_id and len(body["id"]) == 16
    assert (body["player_cards"], body["banker_cards"]) == (SEED["player"], SEED["banker"])
    assert body["bets"]["player"] == {"result": "win", "pays": 1.0}
    whole = open_dealer.round(["9H", "KS"], ["2C", "4C"]).json()["round"]
    assert set(whole) <= set(body)  # every key a whole-round post answers, and complete/next/player/banker
    assert not RoundInProgress.objects.exists()


def test_without_round_or_index_a_card_takes_the_next_place(open_dealer: Dealer) -> None:
    bodies = [card(open_dealer, code).json()["round"] for code in ["9H", "2C", "KS", "4C"]]
    assert [b["cards"] for b in bodies[:3]] == [1, 2, 3]
    assert bodies[3]["complete"] is True and bodies[3]["number"] == 1
    assert card(open_dealer, "AH").json()["round"]["number"] == 2


def test_a_retry_of_a_card_answers_200_with_the_same_body_and_changes_nothing(open_dealer: Dealer) -> None:
    first = card(open_dealer, "9H", round=1, index=1)
    card(open_dealer, "3C", round=1, index=2)
    again = card(open_dealer, "9H", round=1, index=1)
    assert again.status_code == 200 and again.json() == first.json()
    assert RoundInProgress.objects.get().cards == "9H3C"


def test_another_card_at_a_taken_index_is_a_409_naming_the_card_already_there(open_dealer: Dealer) -> None:
    card(open_dealer, "9H", round=1, index=1)
    response = card(open_dealer, "8H", round=1, index=1)
    assert response.status_code == 409
    assert errors(response) == [("index", "card 1 of round 1 is 9H already")]
    assert RoundInProgress.objects.get().cards == "9H"


def test_an_index_past_the_next_one_is_a_409_that_says_which_card_comes_next(open_dealer: Dealer) -> None:
    card(open_dealer, "9H", round=1, index=1)
    response = card(open_dealer, "KS", round=1, index=3)
    assert response.status_code == 409
    assert errors(response) == [
        ("index", "card 3 came before card 2: the next card of round 1 is card 2, the banker's")
    ]
    assert RoundInProgress.objects.get().cards == "9H"


def test_a_round_number_other_than_the_one_being_dealt_is_a_409(open_dealer: Dealer) -> None:
    card(open_dealer, "9H", round=1, index=1)
    response = card(open_dealer, "KS", round=2, index=2)
    assert response.status_code == 409
    assert errors(response) == [("round", "round 2 is not the round being dealt: round 1 is being dealt")]


def test_a_fifth_card_when_both_stand_is_a_422_that_says_why(open_dealer: Dealer) -> None:
    for index, code in enumerate(["9H", "2C", "KS", "4C"], start=1):
        card(open_dealer, code, round=1, index=index)
    response = card(open_dealer, "5D", round=1, index=5)
    assert response.status_code == 422
    assert errors(response) == [("index", "round 1 is over after 4 cards: both stand, player has a natural 9")]
    assert Round.objects.count() == 1 and not RoundInProgress.objects.exists()


def test_a_third_card_to_a_player_on_six_is_a_422_and_the_banker_takes_it(open_dealer: Dealer) -> None:
    for index, code in enumerate(["3H", "2S", "3D", "2C"], start=1):  # player 6, banker 4
        card(open_dealer, code, round=1, index=index)
    response = card(open_dealer, "9S", round=1, index=5, side="player")
    assert response.status_code == 422
    assert errors(response) == [("side", "the next card is the banker's: player stands on 6, banker draws on 4")]
    body = card(open_dealer, "9S", round=1, index=5, side="banker").json()["round"]
    assert body["complete"] is True and body["banker_cards"] == ["2S", "2C", "9S"]


def test_a_retry_of_the_card_that_completed_a_round_answers_the_recorded_round_again(open_dealer: Dealer) -> None:
    for index, code in enumerate(["9H", "2C", "KS"], start=1):
        card(open_dealer, code, round=1, index=index)
    done = card(open_dealer, "4C", round=1, index=4)
    again = card(open_dealer, "4C", round=1, index=4)
    assert again.status_code == 200 and again.json() == done.json()
    early = card(open_dealer, "9H", round=1, index=1)
    assert early.status_code == 200 and early.json()["round"]["cards"] == 1
    other = card(open_dealer, "5C", round=1, index=4)
    assert other.status_code == 409 and errors(other) == [("index", "card 4 of round 1 is 4C already")]
    assert Round.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"card": "ZZ"}, "card", "unknown card 'ZZ'"),
        ({}, "card", "send the card's code"),
        ({"card": "9H", "index": 7}, "index", "less than or equal to 6"),
        ({"card": "9H", "index": 0}, "index", "greater than or equal to 1"),
        ({"card": "9H", "side": "dealer"}, "side", "'player' or 'banker'"),
        ({"card": "9H", "round": "1"}, "round", "valid integer"),
        ({"card": "9H", "plaintext": "S-9-abcdefghijklmnop"}, "plaintext", "is not authenticated"),
        ({"card": "9H", "colour": "red"}, "colour", "Extra inputs"),
    ],
)
def test_a_bad_card_post_is_a_422_naming_the_field_and_changes_nothing(
    open_dealer: Dealer, body: dict, field: str, message: str
) -> None:
    response = open_dealer.post("cards", body)
    assert response.status_code == 422
    assert any(f == field and message in m for f, m in errors(response)), errors(response)
    assert not RoundInProgress.objects.exists()
    assert Shoe.objects.get().deal_steps == 0


def test_a_card_the_shoe_no_longer_holds_is_a_422(dealer: Dealer) -> None:
    dealer.table.decks = 1
    dealer.table.save()
    dealer.start_shoe()
    card(dealer, "9H")
    response = card(dealer, "9H")
    assert response.status_code == 422
    assert errors(response) == [("card", "9H already dealt 1 time in this shoe")]


def test_a_card_needs_a_token_and_an_open_shoe(dealer: Dealer) -> None:
    assert dealer.post("cards", {"card": "9H"}, token="wrong").status_code == 401
    response = card(dealer, "9H")
    assert response.status_code == 409 and "no open shoe" in errors(response)[0][1]


def test_the_round_in_progress_is_public_and_404_when_none(open_dealer: Dealer, client) -> None:
    path = f"/api/tables/{open_dealer.table.slug}/rounds/current"
    response = client.get(path)
    assert response.status_code == 404
    assert errors(response) == [(None, "no round is being dealt at table baccarat-1")]
    card(open_dealer, "9H", dealer="Bao")
    card(open_dealer, "3C")
    body = client.get(path).json()["round"]
    assert (body["number"], body["cards"], body["player"], body["banker"], body["next"]) == (
        1, 2, ["9H"], ["3C"], "player"
    )  # fmt: skip
    assert body["dealer"] == "Bao"
    assert client.get("/api/tables/nope/rounds/current").status_code == 404


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("shoes/current/end", None),
        ("shoes", None),
        ("rounds", {"player": ["9H", "KS"], "banker": ["2C", "4C"]}),
    ],
)
def test_ending_or_starting_a_shoe_or_posting_a_whole_round_is_a_409_while_a_round_is_dealt(
    open_dealer: Dealer, path: str, body
) -> None:
    card(open_dealer, "9H")
    response = open_dealer.post(path, body)
    assert response.status_code == 409
    assert "round 1 of shoe 1 is being dealt (1 card so far)" in errors(response)[0][1]
    assert Shoe.objects.count() == 1 and Shoe.objects.get().state == "open" and not Round.objects.exists()


def test_voiding_is_refused_while_a_round_is_dealt(open_dealer: Dealer, staff_reviewer) -> None:
    open_dealer.round(["9H", "KS"], ["2C", "4C"])
    card(open_dealer, "9H")
    with pytest.raises(services.RoundInProgressError, match="before you void a round"):
        services.round_void(round_=Round.objects.get(), reason="misdeal", user=staff_reviewer)
    assert not Round.objects.get().voided


def test_a_cancelled_round_records_nothing_and_its_cards_count_as_not_dealt(dealer: Dealer) -> None:
    dealer.table.decks = 1
    dealer.table.save()
    dealer.start_shoe()
    card(dealer, "9H")
    card(dealer, "3C")
    response = dealer.post("rounds/current/cancel", {"reason": "card dropped face up"})
    assert response.status_code == 200
    cancelled = response.json()["cancelled"]
    assert (cancelled["number"], cancelled["cards"], cancelled["reason"]) == (1, ["9H", "3C"], "card dropped face up")
    assert not RoundInProgress.objects.exists() and not Round.objects.exists()
    kept = RoundCancel.objects.get()
    assert (kept.source, kept.username, kept.cards, kept.user) == ("api", "", "9H3C", None)
    assert card(dealer, "9H").json()["round"]["number"] == 1  # the round's number is dealt again, 9H too
    assert Shoe.objects.get().dealt == ""


def test_a_cancel_needs_a_reason_and_a_round_being_dealt(open_dealer: Dealer) -> None:
    response = open_dealer.post("rounds/current/cancel", {"reason": "misdeal"})
    assert response.status_code == 404
    assert errors(response) == [(None, "no round is being dealt at table baccarat-1: nothing to cancel")]
    card(open_dealer, "9H")
    for body in ({"reason": "   "}, {}):
        response = open_dealer.post("rounds/current/cancel", body)
        assert response.status_code == 422 and errors(response)[0][0] == "reason"
    assert RoundInProgress.objects.exists() and not RoundCancel.objects.exists()


def test_after_a_cancel_the_shoe_can_end(open_dealer: Dealer) -> None:
    card(open_dealer, "9H")
    open_dealer.post("rounds/current/cancel", {"reason": "misdeal"})
    assert open_dealer.post("shoes/current/end").status_code == 200


def test_the_openapi_schema_documents_the_card_by_card_contract(client) -> None:
    schema = client.get("/api/openapi.json").json()
    cards = schema["paths"]["/api/tables/{slug}/cards"]["post"]
    assert set(cards["responses"]) >= {"200", "201", "401", "409", "422"}
    body = schema["components"]["schemas"][
        cards["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
    ]
    assert set(body["properties"]) == {"card", "plaintext", "round", "index", "side", "dealer", "deal"}
    assert body["properties"]["index"]["anyOf"][0]["maximum"] == 6
    current = schema["paths"]["/api/tables/{slug}/rounds/current"]["get"]
    assert set(current["responses"]) >= {"200", "404"}
    cancel = schema["paths"]["/api/tables/{slug}/rounds/current/cancel"]["post"]
    assert set(cancel["responses"]) >= {"200", "404", "422"}


@pytest.mark.django_db(transaction=True)
def test_the_same_card_posted_four_times_at_once_is_dealt_once(baccarat_1) -> None:
    table, token = baccarat_1
    services.shoe_start(table=table)

    def post(code: str) -> int:
        return Client().post(
            "/api/tables/baccarat-1/cards", data={"card": code, "round": 1, "index": 1},
            content_type="application/json", headers={"Authorization": f"Bearer {token}"},
        ).status_code  # fmt: skip

    assert sorted(at_once(4, lambda: post("9H"))) == [200, 200, 200, 201]
    assert RoundInProgress.objects.get().cards == "9H"
    codes: queue.SimpleQueue[str] = queue.SimpleQueue()
    for code in ("2C", "3C", "4C"):
        codes.put(code)
    statuses = at_once(3, lambda: post(codes.get()))
    assert sorted(statuses) == [409, 409, 409]  # card 1 is 9H already
    assert Shoe.objects.get().deal_steps == 1


def test_a_cancel_of_a_round_no_longer_dealt_cancels_nothing(open_dealer: Dealer) -> None:
    card(open_dealer, "9H")
    with pytest.raises(services.RoundConflictError, match="round 2 is no longer being dealt: round 1 is"):
        services.round_cancel(table=open_dealer.table, reason="misdeal", number=2)
    with pytest.raises(services.NoRoundInProgressError):
        services.round_cancel(table=open_dealer.table, reason="misdeal", number=1, shoe_number=7)
    assert RoundInProgress.objects.exists() and not RoundCancel.objects.exists()


def test_a_late_retry_of_a_cancelled_deal_s_first_card_never_starts_the_deal_again(open_dealer: Dealer) -> None:
    """Issue 49, item 10: a cancelled round's number is dealt again, so a late retry of its
    first card started the re-deal with it. A card that says its deal is refused."""
    assert card(open_dealer, "9H", round=1, index=1, deal=1).status_code == 201
    cancelled = open_dealer.post("rounds/current/cancel", {"reason": "misdeal"})
    assert cancelled.status_code == 200 and cancelled.json()["cancelled"]["next_deal"] == 2
    late = card(open_dealer, "9H", round=1, index=1, deal=1)  # the first post's retry, arriving now
    assert late.status_code == 409
    assert errors(late) == [("deal", "deal 1 of round 1 was cancelled: round 1 is on deal 2")]
    assert not RoundInProgress.objects.exists()
    assert errors(card(open_dealer, "2D", round=1, index=1, deal=3)) == [
        ("deal", "round 1 is on deal 2: deal 3 has not begun")
    ]
    assert card(open_dealer, "2D", round=1, index=1, deal=2).status_code == 201  # the deal again
    assert RoundInProgress.objects.get().cards == "2D"
