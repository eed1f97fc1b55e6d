"""The public round receipt, /rounds/<transaction id>/ and GET /api/rounds/<transaction id>:
a player who disputes a round names its Transaction ID (seeds 000, 002) and sees the round."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables import services
from tables.models import Round, Table
from tables.pages import receipts
from tables.pages.svg import CELL
from tests.html import Prefix, find_all
from tests.road_marks import marks
from tests.rounds import SEED

BANKER_NATURAL = {"player": ["2H", "3D"], "banker": ["9S", "KH"]}  # Banker natural 9 (K is 0)


def marked_cells(page: str) -> list[tuple[int, int]]:
    """(column, row) of the cell each road outlines, in the order of the roads."""
    return [(int(r.attrs["x"]) // CELL, int(r.attrs["y"]) // CELL) for r in find_all(page, "rect", cls="marked")]


def bets(page: str) -> dict[str, tuple[str, str, str]]:
    """A receipt's bets: each bet's result, its pay and the pay cell's class, a row each."""
    rows = [find_all(row.html, "td") for row in find_all(page, "tr", class_=Prefix("bet-"))]
    return {bet.text: (result.text, pays.text, pays.attrs.get("class", "")) for bet, result, pays in rows}


@pytest.fixture
def three_rounds(baccarat_1: tuple[Table, str]) -> list[Round]:
    """P, B, B in the table's first shoe."""
    table, _ = baccarat_1
    services.shoe_start(table=table)
    cards = (SEED, BANKER_NATURAL, BANKER_NATURAL)
    return [services.round_record(table=table, **c, dealer="Bao").round for c in cards]


def test_anyone_sees_a_rounds_table_shoe_cards_winner_and_every_bet(client: Client, three_rounds) -> None:
    first = three_rounds[0]
    response = client.get(f"/rounds/{first.round_id}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert first.round_id in page and "Baccarat 1" in page and "Bao" in page
    assert "<dt>Shoe</dt>" in page and "<dt>Round</dt><dd>1</dd>" in page
    assert "Player wins" in page
    cards = {card.attrs.get("title"): card.text for card in find_all(page, "span", cls="card")}
    assert cards["AH"] == "A♥" and cards["JC"] == "J♣"  # the table page's cards
    assert len(find_all(page, "tr", class_=Prefix("bet-"))) == 14
    assert bets(page)["Player"] == ("Win", "1:1", "num")
    assert bets(page)["Banker"] == ("Lose", "−1", "num")
    assert bets(page)["Player Bonus"] == ("Win", "4:1", "num")
    assert "Voided" not in page


def test_the_receipt_shows_the_roads_as_they_stood_after_its_round_with_it_marked(client: Client, three_rounds) -> None:
    page = client.get(f"/rounds/{three_rounds[1].round_id}/").content.decode()
    assert marks(page, "bead-P") == [(0, 0)] and marks(page, "bead-B") == [(0, 1)]  # not the third round
    assert marks(page, "ring-P") == [(0, 0)] and marks(page, "ring-B") == [(1, 0)]
    assert marked_cells(page) == [(0, 1), (1, 0)]  # its bead, its Big Road ring
    assert len(find_all(page, "svg", cls="road")) == 2  # the Bead Plate and the Big Road only


def test_a_voided_rounds_receipt_says_so_with_its_reason_and_marks_no_cell(client: Client, three_rounds) -> None:
    voided = three_rounds[1]
    reviewer = User.objects.create_user("rev", is_staff=True)
    services.round_void(round_=voided, reason="card misread by the scanner", user=reviewer)
    page = client.get(f"/rounds/{voided.round_id}/").content.decode()
    assert "Voided:</strong> card misread by the scanner<br>" in page
    assert "none of these results stand" in page
    assert marked_cells(page) == []
    assert marks(page, "bead-B") == []  # left out of the roads, as everywhere


def test_an_id_typed_in_lower_case_or_with_a_misread_letter_goes_to_its_round(client: Client, three_rounds) -> None:
    round_id = three_rounds[0].round_id
    typed = round_id.lower().replace("1", "l").replace("0", "o")
    response = client.get(f"/rounds/{typed}/")
    assert response.status_code == 301 and response["Location"] == f"/rounds/{round_id}/"
    assert receipts.round_find(typed) == three_rounds[0]


@pytest.mark.parametrize("round_id", ["0000000000000000", "NO-SUCH-ROUND", "x" * 300, "bad%00id"])
def test_an_unknown_transaction_id_answers_404_with_a_clear_page(client: Client, three_rounds, round_id: str) -> None:
    response = client.get(f"/rounds/{round_id}/")
    assert response.status_code == 404
    page = response.content.decode()
    assert [title.text for title in find_all(page, "h1", class_="page-title")] == ["No such round"]
    assert "No round has the Transaction ID" in page
    assert find_all(page, "a", class_="brand")  # the site's own page, with its header


def test_every_page_not_found_is_the_sites_own(client: Client, db) -> None:
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page and find_all(page, "a", class_="brand") and "Back to the lobby" in page
    assert client.get("/api/no/such/path").json()["errors"][0]["message"] == "no such API path: see /api/docs"


def test_the_table_pages_history_links_each_round_to_its_receipt(client: Client, three_rounds) -> None:
    page = client.get("/tables/baccarat-1/").content.decode()
    for round_ in three_rounds:
        assert find_all(page, "a", href=f"/rounds/{round_.round_id}/")


def test_the_api_gives_a_round_by_its_transaction_id_with_its_table_and_void(client: Client, three_rounds) -> None:
    first = three_rounds[0]
    services.round_void(round_=first, reason="dealt from the wrong shoe", user=None)
    body = client.get(f"/api/rounds/{first.round_id}").json()["round"]
    assert (body["id"], body["table"], body["shoe"], body["number"]) == (first.round_id, "baccarat-1", 1, 1)
    assert body["winner"] == "P" and body["player_cards"] == ["AH", "3S", "5D"]
    assert body["bets"]["player_bonus"] == {"result": "win", "pays": 4.0} and len(body["bets"]) == 14
    assert (body["voided"], body["void_reason"]) == (True, "dealt from the wrong shoe")
    assert client.get(f"/api/rounds/{first.round_id.lower()}").json()["round"]["id"] == first.round_id


@pytest.mark.parametrize("round_id", ["0000000000000000", "bad%00id", "x" * 300])
def test_the_api_answers_an_unknown_transaction_id_with_404_in_the_error_shape(client: Client, db, round_id) -> None:
    response = client.get(f"/api/rounds/{round_id}")
    assert response.status_code == 404
    assert response.json()["errors"][0]["message"].startswith("no round has the Transaction ID")


def test_the_openapi_schema_documents_the_round_lookup(client: Client) -> None:
    schema = client.get("/api/openapi.json").json()
    operation = schema["paths"]["/api/rounds/{round_id}"]["get"]
    assert {"200", "400", "404", "500", "503"} <= set(operation["responses"])
    assert "table" in schema["components"]["schemas"]["ReceiptOut"]["properties"]
