"""Card authentication through the API (issue 20, seed 001): a dealer system commits every
card of a shoe by its SHA-512, burns, reveals each round's cards as dealt and the rest when
the shoe ends; anyone reads the cards, and no plaintext is served before its reveal."""

from __future__ import annotations

import pytest
from django.test import Client

from tables import selectors
from tables.game.authentication import card_hash, new_plaintext, shoe_commitment
from tables.game.cards import Card
from tables.models import PlaintextRefusal, Round, Shoe, ShoeCard
from tables.pages import fragments
from tests.dealers import DECK, ROUND_1, Dealer, Deck, burned, first_round


@pytest.fixture
def deck() -> Deck:
    return Deck.of(DECK)


@pytest.fixture
def auth_dealer(dealer: Dealer, deck: Deck) -> Dealer:
    response = dealer.post("shoes", {"commitments": deck.hashes})
    assert response.status_code == 201, response.json()
    return dealer


def errors(response) -> list[tuple[str, str]]:
    return [(e["field"], e["message"]) for e in response.json()["errors"]]


def snapshot() -> tuple:
    return (
        list(Shoe.objects.values_list("number", "burn_card", "next_card", "revealed", "last_number", "state")),
        list(ShoeCard.objects.exclude(plaintext="").values_list("number", "state")),
        Round.objects.count(),
    )


def test_a_shoe_started_with_every_card_s_hash_is_authenticated_and_committed(dealer: Dealer, deck: Deck) -> None:
    response = dealer.post("shoes", {"commitments": [h.upper() for h in deck.hashes]})
    assert response.status_code == 201
    shoe = response.json()["shoe"]
    assert (shoe["number"], shoe["authenticated"], shoe["cards"]) == (1, True, 416)
    assert shoe["commitment"] == shoe_commitment(deck.hashes)
    assert (shoe["burn"], shoe["revealed"], shoe["fully_verified"]) == (None, 0, False)
    assert list(ShoeCard.objects.order_by("number").values_list("hash", flat=True)) == deck.hashes  # lower case


def test_a_shoe_without_commitments_works_as_before(dealer: Dealer) -> None:
    shoe = dealer.start_shoe().json()["shoe"]
    assert (shoe["authenticated"], shoe["cards"], shoe["commitment"]) == (False, 416, None)
    assert dealer.round(["9H", "KS"], ["2C", "4C"]).status_code == 201
    assert not ShoeCard.objects.exists()


@pytest.mark.parametrize(
    ("change", "field", "why"),
    [
        (lambda h: h[:-1], "commitments", "expected 416 hashes, got 415"),
        (lambda h: [*h[:17], "00", *h[18:]], "commitments[17]", "128 hexadecimal"),
        (lambda h: [*h[:17], "z" * 128, *h[18:]], "commitments[17]", "128 hexadecimal"),
        (lambda h: [*h[:17], h[2], *h[18:]], "commitments[17]", "the same hash as commitments[2]"),
    ],
)
def test_a_wrong_count_a_malformed_or_a_duplicate_hash_is_a_422_and_no_shoe_starts(
    dealer: Dealer, deck: Deck, change, field: str, why: str
) -> None:
    response = dealer.post("shoes", {"commitments": change(deck.hashes)})
    assert response.status_code == 422
    assert any(f == field and why in m for f, m in errors(response)), errors(response)
    assert not Shoe.objects.exists()


def test_card_1_is_turned_over_and_burns_its_value(auth_dealer: Dealer, deck: Deck) -> None:
    response = auth_dealer.post("shoes/current/burn", {"plaintext": deck[1]})
    assert response.status_code == 201
    assert response.json() == {"burn": {"card": "3H", "burned": 3, "next_card": 5}}
    states = dict(ShoeCard.objects.filter(number__lte=5).values_list("number", "state"))
    assert states == {1: "burn_card", 2: "burned", 3: "burned", 4: "burned", 5: "unused"}
    assert auth_dealer.post("shoes/current/burn", {"plaintext": deck[1]}).status_code == 200  # a retry


def test_a_plain_shoe_burns_the_card_it_is_told(open_dealer: Dealer) -> None:
    response = open_dealer.post("shoes/current/burn", {"card": "KD"})
    assert response.json() == {"burn": {"card": "KD", "burned": 10, "next_card": 12}}
    assert open_dealer.post("shoes/current/burn", {"card": "2D"}).status_code == 409


def test_a_round_before_the_burn_of_an_authenticated_shoe_is_a_409(auth_dealer: Dealer, deck: Deck) -> None:
    before = snapshot()
    response = first_round(auth_dealer, deck)
    assert response.status_code == 409
    assert "burn first" in errors(response)[0][1]
    assert snapshot() == before


def test_a_round_reveals_its_cards_in_dealing_order(auth_dealer: Dealer, deck: Deck) -> None:
    burned(auth_dealer, deck)
    response = first_round(auth_dealer, deck, round=1)
    assert response.status_code == 201
    cards = auth_dealer.client.get("/api/tables/baccarat-1/shoes/1/cards").json()["cards"]
    assert [(c["number"], c["state"], c["round"], c["plaintext"]) for c in cards[4:8]] == [
        (5, "dealt", 1, deck[5]),
        (6, "dealt", 1, deck[6]),
        (7, "dealt", 1, deck[7]),
        (8, "dealt", 1, deck[8]),
    ]
    assert first_round(auth_dealer, deck, round=1).status_code == 200  # a retry replays the round


@pytest.mark.parametrize(
    ("plaintexts", "field", "why"),
    [
        (lambda d: [d[5], d[6], d[7]], "plaintexts", "expected 4 plaintexts"),
        (lambda d: [d[5], d[6], d[8], d[7]], "plaintexts[2]", "names 7C but player[1] is KS"),
        (lambda d: [d[5], d[6], new_plaintext(Card.parse("KS")), d[8]], "plaintexts[2]", "public hash of card 7"),
        (lambda d: [d[5], d[6], "S-13-short", d[8]], "plaintexts[2]", "at least 16"),
        (lambda d: None, "plaintexts", "send the plaintext of every card"),
    ],
)
def test_a_plaintext_that_does_not_match_is_a_422_naming_it_and_nothing_is_stored(
    auth_dealer: Dealer, deck: Deck, plaintexts, field: str, why: str
) -> None:
    burned(auth_dealer, deck)
    before = snapshot()
    body = {**ROUND_1, "round": 1}
    if plaintexts(deck) is not None:
        body["plaintexts"] = plaintexts(deck)
    response = auth_dealer.post("rounds", body)
    assert response.status_code == 422
    assert any(f == field and why in m for f, m in errors(response)), errors(response)
    assert snapshot() == before


def test_a_refused_plaintext_is_kept_for_reviewers_without_its_text_or_its_card(
    auth_dealer: Dealer, deck: Deck
) -> None:
    burned(auth_dealer, deck)
    assert first_round(auth_dealer, deck, plaintexts=[deck[5], deck[6], deck[9], deck[8]]).status_code == 422
    [refusal] = PlaintextRefusal.objects.all()
    assert (refusal.field, refusal.round_number) == ("plaintexts[2]", 1)
    assert refusal.reason == "does not name the card reported at player[1]"
    assert refusal.digest == card_hash(deck[9])  # a reviewer can match it to card 9 once revealed
    assert deck[9] not in str(PlaintextRefusal.objects.values_list())


def test_plaintexts_on_a_plain_shoe_are_refused(open_dealer: Dealer, deck: Deck) -> None:
    response = open_dealer.post("rounds", {**ROUND_1, "plaintexts": [deck[5], deck[6], deck[7], deck[8]]})
    assert response.status_code == 422
    assert errors(response)[0][0] == "plaintexts"
    assert not Round.objects.exists()


def end_after_round_1(dealer: Dealer, deck: Deck) -> None:
    burned(dealer, deck)
    assert first_round(dealer, deck).status_code == 201
    assert dealer.post("shoes/current/end").status_code == 200


def test_the_rest_is_revealed_once_the_shoe_ended_and_then_the_shoe_is_fully_verified(
    auth_dealer: Dealer, deck: Deck
) -> None:
    burned(auth_dealer, deck)
    assert first_round(auth_dealer, deck).status_code == 201
    rest = {str(n): deck[n] for n in [2, 3, 4, *range(9, 417)]}
    assert auth_dealer.post("shoes/1/reveal", {"plaintexts": rest}).status_code == 409  # still open
    assert auth_dealer.post("shoes/current/end").json()["shoe"]["state"] == "closed"
    response = auth_dealer.post("shoes/1/reveal", {"plaintexts": rest})
    assert response.status_code == 200, response.json()
    shoe = response.json()["shoe"]
    assert (shoe["revealed"], shoe["fully_verified"]) == (416, True)
    cards = auth_dealer.client.get("/api/tables/baccarat-1/shoes/1/cards").json()["cards"]
    assert [c["plaintext"] for c in cards] == deck.plaintexts
    assert [c["state"] for c in cards[:9]] == ["burn_card", *["burned"] * 3, *["dealt"] * 4, "unused"]
    assert auth_dealer.post("shoes/1/reveal", {"plaintexts": {"9": deck[9]}}).status_code == 200  # a retry


@pytest.mark.parametrize(
    ("plaintexts", "field", "why"),
    [
        ({"2": "wrong"}, "plaintexts.2", "expected '<suit>-<points>-<random>'"),
        ({"417": "x"}, "plaintexts.417", "they run from 1 to 416"),
        ({"02": "x"}, "plaintexts.02", "not a card number"),
        ({}, "plaintexts", "at least one card"),
    ],
)
def test_a_reveal_that_does_not_match_is_a_422_and_nothing_is_stored(
    auth_dealer: Dealer, deck: Deck, plaintexts: dict, field: str, why: str
) -> None:
    end_after_round_1(auth_dealer, deck)
    before = snapshot()
    body = {"9": deck[9], **plaintexts} if plaintexts else {}  # with a good one: all or nothing
    response = auth_dealer.post("shoes/1/reveal", {"plaintexts": body})
    assert response.status_code == 422
    assert any(f == field and why in m for f, m in errors(response)), errors(response)
    assert snapshot() == before


def test_a_reveal_with_another_card_s_plaintext_is_refused_and_kept_for_reviewers(
    auth_dealer: Dealer, deck: Deck
) -> None:
    end_after_round_1(auth_dealer, deck)
    response = auth_dealer.post("shoes/1/reveal", {"plaintexts": {"9": deck[10], "10": deck[10]}})
    assert errors(response) == [("plaintexts.9", "does not match the public hash of card 9")]
    assert not ShoeCard.objects.filter(number__in=[9, 10]).exclude(plaintext="").exists()
    assert PlaintextRefusal.objects.get().card_number == 9


def test_a_plain_shoe_has_no_cards_to_read_or_reveal(open_dealer: Dealer) -> None:
    cards = open_dealer.client.get("/api/tables/baccarat-1/shoes/1/cards").json()
    assert cards == {"shoe": 1, "authenticated": False, "commitment": None, "cards": []}
    assert open_dealer.client.get("/api/tables/baccarat-1/shoes/2/cards").status_code == 404
    open_dealer.post("shoes/current/end")
    assert open_dealer.post("shoes/1/reveal", {"plaintexts": {"2": "x"}}).status_code == 409


def test_ending_a_shoe_when_none_is_open_is_a_409(dealer: Dealer) -> None:
    assert dealer.post("shoes/current/end").status_code == 409


def test_revealing_a_shoe_the_table_never_had_is_a_404(dealer: Dealer, deck: Deck) -> None:
    response = dealer.post("shoes/7/reveal", {"plaintexts": {"2": deck[2]}})
    assert (response.status_code, errors(response)) == (404, [(None, "table 'baccarat-1' has no shoe 7")])


def test_no_plaintext_is_served_before_its_card_is_revealed(
    auth_dealer: Dealer, deck: Deck, client: Client, staff_reviewer
) -> None:
    burned(auth_dealer, deck)
    assert first_round(auth_dealer, deck).status_code == 201
    # A future card's plaintext sent at the wrong place is refused, and kept nowhere.
    assert first_round(auth_dealer, deck, round=2, plaintexts=[deck[9], deck[10], deck[11], deck[12]]).status_code
    hidden = [deck[n] for n in [2, 3, 4, *range(9, 417)]]
    secret_parts = [p.split("-", 2)[2] for p in hidden]
    round_ = Round.objects.get()

    def leaks(text: str) -> bool:
        return any(part in text for part in secret_parts)

    public = [
        "/api/tables/baccarat-1/shoes/1/cards",
        "/api/tables/baccarat-1/rounds?shoe=current",
        "/api/tables/baccarat-1/roads",
        "/",
        "/tables/baccarat-1/",
        "/tables/baccarat-1/display/",
        f"/rounds/{round_.round_id}/",
        f"/api/rounds/{round_.round_id}",
    ]
    for page in public:
        response = client.get(page)
        assert response.status_code == 200, page
        assert not leaks(response.content.decode()), page
    table, shoe = auth_dealer.table, Shoe.objects.get()
    pushes = [fragments.table_push_html(table, shoe, selectors.table_version(shoe), since=None)]
    pushes += [fragments.table_odds_html(table), *fragments.lobby_cards_html()]
    assert not any(leaks(push) for push in pushes)
    client.force_login(staff_reviewer)
    for export in ("/review/rounds.json", "/review/rounds.csv"):
        assert not leaks(b"".join(client.get(export).streaming_content).decode()), export
    for page in (
        f"/admin/tables/shoe/{shoe.pk}/change/",
        f"/admin/tables/round/{round_.pk}/change/",
        "/admin/tables/shoe/",
        "/admin/",
    ):
        response = client.get(page)
        assert response.status_code == 200, page
        assert not leaks(response.content.decode()), page
    revealed = client.get(public[0]).content.decode()
    assert all(deck[n] in revealed for n in [1, 5, 6, 7, 8])


def test_the_readme_s_worked_example_starts_burns_records_a_round_and_reveals_a_fully_verified_shoe(
    dealer: Dealer, tmp_path
) -> None:
    import json
    import re
    import subprocess
    import sys
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "docs" / "card-authentication.md").read_text()
    section = readme
    script = re.search(r"python3 -c '\n(.*?)\n'\n", section, re.S).group(1)
    printed = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True)
    body = {name: json.loads((tmp_path / f"{name}.json").read_text()) for name in ("commit", "burn", "round", "reveal")}
    shoe = dealer.post("shoes", body["commit"]).json()["shoe"]
    assert printed.stdout.split() == ["commitment", shoe["commitment"]]
    burn = dealer.post("shoes/current/burn", body["burn"]).json()
    assert burn == {"burn": {"card": "3H", "burned": 3, "next_card": 5}}
    round_ = dealer.post("rounds", body["round"]).json()["round"]
    assert (round_["winner"], round_["natural"]) == ("P", {"player": 9, "banker": 8})
    assert dealer.post("shoes/current/end").status_code == 200
    assert dealer.post(f"shoes/{shoe['number']}/reveal", body["reveal"]).json()["shoe"]["fully_verified"] is True


def test_a_shoe_s_bodies_may_be_larger_than_a_round_s_but_not_without_bound(dealer: Dealer, settings) -> None:
    settings.API_MAX_SHOE_BODY_BYTES = 70_000  # an 8-deck shoe's hashes take about 56 KiB
    assert dealer.post("shoes", {"commitments": Deck.of("").hashes}).status_code == 201
    too_big = dealer.post("shoes", {"commitments": ["0" * 128] * 600})
    assert too_big.status_code == 413
    assert dealer.post("rounds", {**ROUND_1, "dealer": "x" * 20_000}).status_code == 413
    assert not Shoe.objects.filter(number=2).exists()
