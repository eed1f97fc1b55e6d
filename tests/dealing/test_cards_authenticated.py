"""Card by card on an authenticated shoe (seed 001): each card's plaintext is checked
against the next committed card's public hash as it comes."""

from __future__ import annotations

import pytest

from tables.models import PlaintextRefusal, Round, RoundInProgress, Shoe, ShoeCard
from tests.dealers import DECK, Dealer, Deck, burned

# Card 1 is 3H: burns cards 2-4; round 1 is dealt from card 5: P 9H, B AH, P KS, B 7C (a natural 9).


@pytest.fixture
def deck() -> Deck:
    return Deck.of(DECK)


@pytest.fixture
def auth_dealer(dealer: Dealer, deck: Deck) -> Dealer:
    assert dealer.post("shoes", {"commitments": deck.hashes}).status_code == 201
    return dealer


def errors(response) -> list[tuple[str | None, str]]:
    return [(e["field"], e["message"]) for e in response.json()["errors"]]


def test_each_card_is_its_plaintext_and_the_last_records_the_round_with_its_cards(
    auth_dealer: Dealer, deck: Deck
) -> None:
    burned(auth_dealer, deck)
    answers = [auth_dealer.post("cards", {"plaintext": deck[n], "round": 1, "index": n - 4}) for n in range(5, 9)]
    assert [a.status_code for a in answers] == [201] * 4
    assert answers[0].json()["round"]["player"] == ["9H"]
    body = answers[-1].json()["round"]
    assert body["complete"] is True and (body["player_cards"], body["banker_cards"]) == (["9H", "KS"], ["AH", "7C"])
    round_ = Round.objects.get()
    cards = ShoeCard.objects.filter(number__in=range(5, 9)).order_by("number")
    assert [(c.state, c.round_id, c.plaintext) for c in cards] == [("dealt", round_.pk, deck[n]) for n in range(5, 9)]
    shoe = Shoe.objects.get()
    assert (shoe.next_card, shoe.revealed) == (9, 5)  # card 1 and the round's four


def test_a_card_beside_its_plaintext_must_be_the_card_it_names(auth_dealer: Dealer, deck: Deck) -> None:
    burned(auth_dealer, deck)
    assert auth_dealer.post("cards", {"plaintext": deck[5], "card": "9H"}).status_code == 201
    response = auth_dealer.post("cards", {"plaintext": deck[6], "card": "AS"})
    assert response.status_code == 422
    assert errors(response) == [("plaintext", "names AH but the card sent is AS")]


def test_a_plaintext_of_another_card_is_refused_kept_for_reviewers_and_changes_nothing(
    auth_dealer: Dealer, deck: Deck
) -> None:
    burned(auth_dealer, deck)
    response = auth_dealer.post("cards", {"plaintext": deck[6], "index": 1})  # card 6, sent as card 5
    assert response.status_code == 422
    assert errors(response) == [("plaintext", "does not match the public hash of card 5")]
    refusal = PlaintextRefusal.objects.get()
    assert (refusal.card_number, refusal.round_number, refusal.field) == (5, 1, "plaintext")
    assert not RoundInProgress.objects.exists() and Shoe.objects.get().deal_steps == 0


def test_an_authenticated_shoe_takes_plaintexts_and_burns_first(auth_dealer: Dealer, deck: Deck) -> None:
    response = auth_dealer.post("cards", {"plaintext": deck[5]})
    assert response.status_code == 409 and "burn first" in errors(response)[0][1]
    burned(auth_dealer, deck)
    response = auth_dealer.post("cards", {"card": "9H"})
    assert response.status_code == 422 and errors(response)[0][0] == "plaintext"


def test_a_retry_names_the_same_plaintext(auth_dealer: Dealer, deck: Deck) -> None:
    burned(auth_dealer, deck)
    first = auth_dealer.post("cards", {"plaintext": deck[5], "round": 1, "index": 1})
    again = auth_dealer.post("cards", {"plaintext": deck[5], "round": 1, "index": 1})
    assert again.status_code == 200 and again.json() == first.json()


def test_a_cancelled_round_spends_its_committed_cards_as_burned(auth_dealer: Dealer, deck: Deck) -> None:
    burned(auth_dealer, deck)
    auth_dealer.post("cards", {"plaintext": deck[5]})
    auth_dealer.post("cards", {"plaintext": deck[6]})
    assert auth_dealer.post("rounds/current/cancel", {"reason": "misdeal"}).status_code == 200
    assert list(ShoeCard.objects.filter(number__in=(5, 6)).values_list("state", "plaintext")) == [
        ("burned", deck[5]),
        ("burned", deck[6]),
    ]
    shoe = Shoe.objects.get()
    assert (shoe.next_card, shoe.revealed, shoe.dealt) == (7, 3, "")
    response = auth_dealer.post("cards", {"plaintext": deck[7]})  # the next round starts at card 7
    assert response.status_code == 201 and response.json()["round"]["player"] == ["KS"]
