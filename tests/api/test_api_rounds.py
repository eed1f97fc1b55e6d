"""The dealer ingest API: POST /api/tables/{slug}/rounds."""

from __future__ import annotations

import pytest

from tables import services
from tables.models import Round
from tests.concurrency import at_once
from tests.dealers import Dealer
from tests.rounds import SEED


def errors(response) -> list[dict]:
    return response.json()["errors"]


def test_a_round_is_recorded_with_its_outcome_and_bets(open_dealer: Dealer) -> None:
    response = open_dealer.round(**SEED, round=1, dealer="Bao")
    assert response.status_code == 201
    body = response.json()["round"]
    assert body["shoe"] == 1 and body["number"] == 1
    assert body["winner"] == "P"
    assert (body["player_score"], body["banker_score"]) == (9, 3)
    assert body["player_cards"] == ["AH", "3S", "5D"] and body["banker_cards"] == ["JC", "2H", "AD"]
    assert (body["player_pair"], body["banker_pair"], body["perfect_pair"]) == (False, False, False)
    assert body["natural"] == {"player": None, "banker": None}
    assert body["bets"]["player"] == {"result": "win", "pays": 1.0}
    assert body["bets"]["banker"] == {"result": "lose", "pays": -1.0}
    assert body["bets"]["player_bonus"] == {"result": "win", "pays": 4.0}  # non-natural win by 6 pays 4:1
    assert len(body["bets"]) == 14
    assert body["dealer"] == "Bao"
    assert len(body["id"]) == 16
    stored = Round.objects.get(round_id=body["id"])
    assert (stored.player_cards, stored.banker_cards, stored.winner) == ("AH3S5D", "JC2HAD", "P")
    open_dealer.table.refresh_from_db()
    assert open_dealer.table.dealer_name == "Bao"


def test_the_server_numbers_the_round_when_the_dealer_does_not(open_dealer: Dealer) -> None:
    numbers = [open_dealer.round(["9H", "KS"], ["2C", "4C"]).json()["round"]["number"] for _ in range(3)]
    assert numbers == [1, 2, 3]


def test_cards_are_accepted_as_10_or_t_in_any_case_and_stored_canonical(open_dealer: Dealer) -> None:
    body = open_dealer.round(["10h", "9s"], ["kc", "4d"]).json()["round"]
    assert body["player_cards"] == ["TH", "9S"]
    assert body["natural"] == {"player": 9, "banker": None}


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"player": ["AH", "ZZ"], "banker": ["9C", "QH"]}, "player[1]", "unknown card 'ZZ'"),
        ({"player": ["AH", "3S"], "banker": ["6C", "QH"]}, "player", "player must draw on 4"),
        ({"player": ["AH", "3S", "5D"], "banker": ["7C", "QH", "2D"]}, "banker[2]", "banker must stand on 7"),
        ({"player": ["AH"], "banker": ["9C", "QH"]}, "player", "at least 2 items"),
        ({"player": ["AH", 3], "banker": ["9C", "QH"]}, "player[1]", "valid string"),
        ({"banker": ["9C", "QH"]}, "player", "Field required"),
        ({"player": ["9H", "KS"], "banker": ["2C", "4C"], "round": 0}, "round", "greater than or equal to 1"),
        ({"player": ["9H", "KS"], "banker": ["2C", "4C"], "table": "x"}, "table", "Extra inputs are not permitted"),
    ],
)
def test_invalid_rounds_get_422_naming_the_field_and_change_nothing(
    open_dealer: Dealer, body: dict, field: str, message: str
) -> None:
    response = open_dealer.post("rounds", body)
    assert response.status_code == 422
    assert any(e["field"] == field and message in e["message"] for e in errors(response)), errors(response)
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    ("raw", "message"), [("{bad", "malformed JSON"), ("", "Field required"), ("[1]", "valid dictionary")]
)
def test_a_body_that_is_not_a_json_object_gets_422(open_dealer: Dealer, raw: str, message: str) -> None:
    response = open_dealer.post("rounds", raw=raw)
    assert response.status_code == 422
    assert message in errors(response)[0]["message"]
    assert errors(response)[0]["field"] == "body"


def test_a_card_dealt_more_times_than_the_shoe_holds_gets_422(open_dealer: Dealer) -> None:
    for _ in range(8):  # eight decks: eight aces of spades
        assert open_dealer.round(["AS", "8D"], ["KH", "QH"]).status_code == 201
    response = open_dealer.round(["AS", "8D"], ["KH", "QH"])
    assert response.status_code == 422
    assert {"field": "player[0]", "message": "AS already dealt 8 times in this shoe"} in errors(response)
    assert Round.objects.count() == 8


def test_a_new_shoe_holds_every_card_again(open_dealer: Dealer) -> None:
    for _ in range(8):
        open_dealer.round(["AS", "8D"], ["KH", "QH"])
    open_dealer.start_shoe()
    assert open_dealer.round(["AS", "8D"], ["KH", "QH"]).status_code == 201


def test_missing_or_wrong_token_gets_401(open_dealer: Dealer) -> None:
    response = open_dealer.client.post("/api/tables/baccarat-1/rounds", data=SEED, content_type="application/json")
    assert response.status_code == 401
    assert errors(response)[0]["field"] == "Authorization"
    assert open_dealer.post("rounds", SEED, token="not-the-token").status_code == 401
    assert not Round.objects.exists()


def test_a_token_of_table_a_never_posts_to_table_b(open_dealer: Dealer) -> None:
    table_b, _token_b = services.table_create(slug="baccarat-2", name="Baccarat 2")
    services.shoe_start(table=table_b)
    response = open_dealer.client.post(
        "/api/tables/baccarat-2/rounds",
        data=SEED,
        content_type="application/json",
        headers={"Authorization": f"Bearer {open_dealer.token}"},
    )
    assert response.status_code == 401
    assert not Round.objects.exists()


def test_an_unknown_table_gets_404(open_dealer: Dealer) -> None:
    response = open_dealer.client.post(
        "/api/tables/nowhere/rounds", data=SEED, content_type="application/json",
        headers={"Authorization": f"Bearer {open_dealer.token}"},
    )  # fmt: skip
    assert response.status_code == 404
    assert "nowhere" in errors(response)[0]["message"]


def test_no_open_shoe_gets_409(dealer: Dealer) -> None:
    response = dealer.round(**SEED)
    assert response.status_code == 409
    assert "no open shoe" in errors(response)[0]["message"]


def test_a_round_number_that_is_not_the_next_gets_409(open_dealer: Dealer) -> None:
    response = open_dealer.round(**SEED, round=2)
    assert response.status_code == 409
    assert errors(response) == [{"field": "round", "message": "round 2 is not the next round of shoe 1: expected 1"}]


def test_replaying_a_round_with_identical_cards_returns_200_and_the_same_body(open_dealer: Dealer) -> None:
    first = open_dealer.round(**SEED, round=1)
    again = open_dealer.round(player=["ah", "3s", "5d"], banker=["JC", "2H", "AD"], round=1)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert Round.objects.count() == 1


def test_replaying_a_round_number_with_other_cards_gets_409(open_dealer: Dealer) -> None:
    open_dealer.round(**SEED, round=1)
    response = open_dealer.round(["9H", "KS"], ["2C", "4C"], round=1)
    assert response.status_code == 409
    assert "already recorded with other cards" in errors(response)[0]["message"]
    assert Round.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_posts_of_the_same_round_store_exactly_one(baccarat_1) -> None:
    from django.test import Client

    table, token = baccarat_1
    services.shoe_start(table=table)

    def post() -> int:
        return Client().post(
            "/api/tables/baccarat-1/rounds", data={**SEED, "round": 1}, content_type="application/json",
            headers={"Authorization": f"Bearer {token}"},
        ).status_code  # fmt: skip

    statuses = at_once(4, post)
    assert sorted(statuses) == [200, 200, 200, 201]
    assert Round.objects.count() == 1


def test_rounds_are_listed_publicly_for_the_current_or_a_numbered_shoe(open_dealer: Dealer) -> None:
    open_dealer.round(**SEED)
    open_dealer.start_shoe()
    open_dealer.round(["9H", "KS"], ["2C", "4C"])
    client = open_dealer.client
    current = client.get("/api/tables/baccarat-1/rounds").json()
    assert current["shoe"]["number"] == 2
    assert [r["winner"] for r in current["rounds"]] == ["P"]
    first = client.get("/api/tables/baccarat-1/rounds?shoe=1").json()
    assert first["shoe"]["state"] == "closed"
    assert [r["player_cards"] for r in first["rounds"]] == [["AH", "3S", "5D"]]
    assert client.get("/api/tables/baccarat-1/rounds?shoe=9").status_code == 404
    assert client.get("/api/tables/baccarat-1/rounds?shoe=last").status_code == 422
    assert client.get("/api/tables/nowhere/rounds").status_code == 404


def test_the_openapi_schema_documents_the_ingest_contract(client) -> None:
    schema = client.get("/api/openapi.json").json()
    post = schema["paths"]["/api/tables/{slug}/rounds"]["post"]
    assert {"200", "201", "401", "404", "409", "422"} <= set(post["responses"])
    assert post["security"]


def test_the_api_docs_load_swagger_from_our_static_files_not_a_cdn(client) -> None:
    page = client.get("/api/docs").content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower()


def test_with_the_database_down_the_dealer_gets_503_saying_to_retry(open_dealer: Dealer, monkeypatch) -> None:
    from django.db import OperationalError

    def database_down(**kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(services, "round_record", database_down)
    response = open_dealer.round(**SEED, round=1)
    assert response.status_code == 503 and response["Retry-After"] == "2"
    assert errors(response) == [
        {"field": None, "message": "the database is unavailable: nothing was recorded, retry shortly"}
    ]
