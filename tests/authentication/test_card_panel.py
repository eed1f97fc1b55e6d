"""The card authentication panel (issue 20, stage 2): the table page shows an
authenticated shoe's commitment from its start and, on demand, every card's Public Hash
Value; each revealed card's plaintext with a Verify button; pushes bring what each round
revealed, and nothing shows a plaintext before its card is revealed."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.test import Client

from tables import selectors
from tables.live import consumers
from tables.models import Shoe
from tables.pages import fragments
from tests.dealers import DECK, Dealer, Deck, burned, first_round
from tests.html import Prefix, find, find_all

ROUND_2 = {"player": ["2H", "3H"], "banker": ["4H", "5H"]}  # cards 9-12 of the deck below
PANEL_DECK = "3H 2S 2D 2C 9H AH KS 7C 2H 4H 3H 5H"


@pytest.fixture
def deck() -> Deck:
    return Deck.of(DECK)


@pytest.fixture
def auth_dealer(dealer: Dealer, deck: Deck) -> Dealer:
    assert dealer.post("shoes", {"commitments": deck.hashes}).status_code == 201
    return dealer


def secret(plaintext: str) -> str:
    return plaintext.split("-", 2)[2]


def test_the_table_page_shows_the_commitment_from_the_start_and_every_card_s_hash_on_demand(
    auth_dealer: Dealer, deck: Deck, client: Client
) -> None:
    shoe = Shoe.objects.get()
    page = client.get("/tables/baccarat-1/").content.decode()
    assert find_all(page, "section", id="cards-auth") and shoe.commitment in page and "not turned yet" in page
    assert find_all(page, "a", download="baccarat-1-shoe-1-cards.json")
    rows = client.get("/tables/baccarat-1/shoes/1/cards/").content.decode()
    assert len(find_all(rows, "div", cls="card-row")) == 416 and all(h in rows for h in deck.hashes)
    assert "Verify" not in rows and not any(secret(p) in rows for p in deck.plaintexts)


def test_a_revealed_card_shows_its_plaintext_its_card_and_a_verify_button_and_no_other_does(
    auth_dealer: Dealer, deck: Deck, client: Client
) -> None:
    burned(auth_dealer, deck)
    assert first_round(auth_dealer, deck).status_code == 201
    rows = client.get("/tables/baccarat-1/shoes/1/cards/").content.decode()
    for number in (1, 5, 6, 7, 8):
        assert deck[number] in rows
    assert len(find_all(rows, "button", type="button", cls="verify")) == 5
    assert not any(secret(deck[n]) in rows for n in [2, 3, 4, *range(9, 417)])
    row_1 = find(rows, "div", data_card="1-1")
    assert "burn card" in row_1.text
    red = find_all(row_1.html, "span", class_="card-drawn red")  # red, as on the card
    assert [drawn.text for drawn in red] == ["3♥"]
    assert "K♠" in [drawn.text for drawn in find_all(rows, "span", class_="card-drawn")]  # card 7, the Player's second
    page = client.get("/tables/baccarat-1/").content.decode()
    assert "3♥ · 3 burned" in page and "5 of 416" in page


def test_a_round_s_push_brings_only_its_cards_and_the_panel_s_counts(dealer: Dealer, client: Client) -> None:
    panel_deck = Deck.of(PANEL_DECK)
    assert dealer.post("shoes", {"commitments": panel_deck.hashes}).status_code == 201
    burned(dealer, panel_deck)
    assert first_round(dealer, panel_deck).status_code == 201
    table, shoe = dealer.table, Shoe.objects.get()
    since = selectors.table_version(shoe)
    plaintexts = [panel_deck[n] for n in (9, 10, 11, 12)]
    assert dealer.post("rounds", {**ROUND_2, "plaintexts": plaintexts}).status_code == 201
    shoe.refresh_from_db()
    delta = fragments.table_push_html(table, shoe, selectors.table_version(shoe), since=since)
    assert find_all(delta, "div", hx_swap_oob="beforeend:#card-updates") and "9 of 416" in delta
    cards = [row.attrs["data-card"] for row in find_all(delta, "*", data_card=Prefix(""))]
    assert cards == ["1-9", "1-10", "1-11", "1-12"]
    assert all(p in delta for p in plaintexts) and not find_all(delta, "*", id="cards-auth")  # not the whole panel
    assert not any(secret(panel_deck[n]) in delta for n in range(13, 417))


def test_the_burn_and_the_reveal_reach_the_pages_though_no_round_changed(auth_dealer: Dealer, deck: Deck) -> None:
    table, shoe = auth_dealer.table, Shoe.objects.get()
    version = selectors.table_version(shoe)
    before = fragments.table_push_html(table, shoe, version, since=version)
    burned(auth_dealer, deck)
    shoe.refresh_from_db()
    burned_version = selectors.table_version(shoe)
    after = fragments.table_push_html(table, shoe, burned_version, since=version)
    assert replace(burned_version, cards=version.cards) == version and "not turned yet" in before  # the cards alone
    assert "3♥ · 3 burned" in after, "a live part kept for the rounds alone would show the shoe unburned"
    assert "3♥ · 3 burned" in consumers.table_missed("baccarat-1", version), "a page offline during the burn resyncs"
    assert consumers.table_missed("baccarat-1", burned_version) == ""
    assert auth_dealer.post("shoes/current/end", {}).status_code == 200
    assert consumers.table_missed("baccarat-1", burned_version) != "", "and one offline when the shoe ended"


def test_an_unauthenticated_shoe_says_so_and_has_no_cards(open_dealer: Dealer, client: Client) -> None:
    page = client.get("/tables/baccarat-1/").content.decode()
    assert "Shoe 1 is not authenticated" in page and "download=" not in page
    assert "no committed cards" in client.get("/tables/baccarat-1/shoes/1/cards/").content.decode()
    assert client.get("/tables/baccarat-1/shoes/9/cards/").status_code == 404


def test_a_receipt_shows_its_round_s_cards_with_their_plaintexts_and_no_other_card(
    auth_dealer: Dealer, deck: Deck, client: Client
) -> None:
    burned(auth_dealer, deck)
    round_id = first_round(auth_dealer, deck).json()["round"]["id"]
    receipt = client.get(f"/rounds/{round_id}/").content.decode()
    assert Shoe.objects.get().commitment in receipt and "js/cards.js" in receipt
    assert all(deck[n] in receipt for n in (5, 6, 7, 8)) and len(find_all(receipt, "button", cls="verify")) == 4
    assert not any(secret(deck[n]) in receipt for n in [1, 2, 3, 4, *range(9, 417)])


def test_the_admin_shoe_page_shows_the_authentication_and_refused_plaintexts_without_their_text(
    auth_dealer: Dealer, deck: Deck, client: Client, staff_reviewer
) -> None:
    burned(auth_dealer, deck)
    assert first_round(auth_dealer, deck).status_code == 201
    refused = first_round(auth_dealer, deck, round=2, plaintexts=[deck[9], deck[10], deck[11], deck[12]])
    assert refused.status_code == 422
    client.force_login(staff_reviewer)
    page = client.get(f"/admin/tables/shoe/{Shoe.objects.get().pk}/change/").content.decode()
    summary = find(page, "p", id="card-auth-summary").text
    assert "Authenticated" in summary and "5 of 416 cards verified" in summary
    assert find_all(page, "table", id="plaintext-refusals") and "plaintexts[0]" in page
    assert not any(secret(deck[n]) in page for n in range(9, 417))
