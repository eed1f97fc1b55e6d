"""The ingest API's contract is what its schema says, and every answer outside it is an
error in the documented shape, small, written for the integrator of a dealer system.

Each test here is a finding of the outside probe (issue 17) or of the fuzzing: it failed
before its fix."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tables.models import Round
from tests.dealers import Dealer
from tests.rounds import SEED


def errors(response) -> list[dict]:
    assert response["Content-Type"] == "application/json; charset=utf-8"
    return response.json()["errors"]


def post_raw(dealer: Dealer, body: bytes, content_type: str = "application/json") -> object:
    return dealer.client.post(
        "/api/tables/baccarat-1/rounds",
        data=body,
        content_type=content_type,
        headers={"Authorization": f"Bearer {dealer.token}"},
    )


# --- 1. Text a dealer system sends is stored alike on every database -------------------


@pytest.mark.parametrize("name", ["Bo\u0000b", "Bo\nb", "\u001b[31mBob", "Bo\u0085b", "Bo\ud800b"])
def test_a_dealer_name_with_a_control_character_gets_422_on_every_database(open_dealer: Dealer, name: str) -> None:
    """PostgreSQL cannot store a NUL (it answered 500), SQLite stored it."""
    response = open_dealer.round(**SEED, dealer=name)
    assert response.status_code == 422
    [error] = errors(response)
    assert error["field"] == "dealer"
    assert not Round.objects.exists()
    open_dealer.table.refresh_from_db()
    assert open_dealer.table.dealer_name == "Anna"


def test_a_dealer_name_in_any_script_is_stored(open_dealer: Dealer) -> None:
    assert open_dealer.round(**SEED, dealer="Zoë 李娜").json()["round"]["dealer"] == "Zoë 李娜"


@pytest.mark.parametrize("slug", ["baccarat\u00001", "baccarat\u00a01", "x" * 41])
def test_a_table_path_that_is_no_slug_gets_404_and_reads_nothing(client: Client, baccarat_1, slug: str) -> None:
    """A NUL in the path was a 500 on PostgreSQL, which cannot compare it."""
    response = client.get(f"/api/tables/{slug}/rounds")
    assert response.status_code == 404
    assert errors(response)[0]["message"].startswith("no table")


# --- 3. Errors are bounded ---------------------------------------------------------------


def test_a_hand_has_2_or_3_cards_in_the_schema(client: Client) -> None:
    schema = client.get("/api/openapi.json").json()["components"]["schemas"]["RoundIn"]["properties"]
    for side in ("player", "banker"):
        assert (schema[side]["minItems"], schema[side]["maxItems"]) == (2, 3)
        assert schema[side]["items"]["maxLength"] == 3


def test_a_hand_of_thousands_of_bad_cards_gets_a_small_422(open_dealer: Dealer) -> None:
    response = open_dealer.post("rounds", {"player": ["Z"] * 1500, "banker": [7] * 1500})
    assert response.status_code == 422
    assert 1 <= len(errors(response)) <= 10
    assert len(response.content) < 2000
    assert not Round.objects.exists()


def test_the_probe_s_2_4_mb_hand_gets_a_small_413(open_dealer: Dealer) -> None:
    """It got a 76.7 MB 422."""
    response = open_dealer.post("rounds", {"player": ["Z"] * 480_000, "banker": ["AH", "KD"]})
    assert response.status_code == 413
    assert errors(response)[0]["field"] == "body"
    assert len(response.content) < 500


def test_many_unknown_fields_get_at_most_ten_errors_saying_how_many_more(open_dealer: Dealer) -> None:
    body = {**SEED, **{f"extra{i}": i for i in range(50)}}
    listed = errors(open_dealer.post("rounds", body))
    assert len(listed) == 10
    assert listed[-1] == {"field": None, "message": "and 41 more errors"}


# --- 6. The contract is the schema: ASCII card codes, integer round numbers, JSON bodies -----


@pytest.mark.parametrize("card", ["9\u017f", " kd\n", "ＡH", "\u0430H"])
def test_a_card_code_that_only_looks_right_gets_422(open_dealer: Dealer, card: str) -> None:
    """U+017F (long s) upper-cases to "S": it was stored as 9S."""
    response = open_dealer.round([card, "KS"], ["2C", "4C"])
    assert response.status_code == 422
    assert errors(response)[0]["field"] == "player[0]"
    assert not Round.objects.exists()


@pytest.mark.parametrize("number", [True, "1", 1.0, "one"])
def test_a_round_number_is_an_integer_and_nothing_that_converts_to_one(open_dealer: Dealer, number: object) -> None:
    response = open_dealer.round(["9H", "KS"], ["2C", "4C"], round=number)
    assert response.status_code == 422
    assert errors(response)[0]["field"] == "round"
    assert not Round.objects.exists()


@pytest.mark.parametrize("field", ["dealer", "player"])
def test_text_fields_are_strings_and_nothing_that_converts_to_one(open_dealer: Dealer, field: str) -> None:
    body = {**SEED, field: 7 if field == "dealer" else [1, 2]}
    assert open_dealer.post("rounds", body).status_code == 422


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"])
def test_a_body_not_sent_as_json_gets_415(open_dealer: Dealer, content_type: str) -> None:
    response = post_raw(open_dealer, json.dumps(SEED).encode(), content_type)
    assert response.status_code == 415
    assert "application/json" in errors(response)[0]["message"]
    assert not Round.objects.exists()


def test_a_utf_16_body_gets_a_clear_error(open_dealer: Dealer) -> None:
    response = post_raw(open_dealer, json.dumps(SEED).encode("utf-16"))
    assert response.status_code == 422
    assert errors(response)[0]["message"].startswith("malformed JSON: the body is not UTF-8 text")
    response = open_dealer.client.post(  # the test client encodes it in the charset named
        "/api/tables/baccarat-1/rounds",
        data=json.dumps(SEED),
        content_type="application/json; charset=utf-16",
        headers={"Authorization": f"Bearer {open_dealer.token}"},
    )
    assert response.status_code == 415
    assert not Round.objects.exists()


def test_a_json_media_type_with_utf_8_is_accepted(open_dealer: Dealer) -> None:
    response = post_raw(open_dealer, json.dumps(SEED).encode(), "application/json; charset=UTF-8")
    assert response.status_code == 201


# --- 10. Every error is JSON in the documented shape, in words for an integrator ----------


@pytest.mark.parametrize(
    ("raw", "not_said"),
    [
        (b'{"player": ["AH", "KD"], "banker": ["2C", "3D"], "round": ' + b"9" * 5000 + b"}", "sys."),
        (b'{"player": ["AH", "KD"], "banker": ["2C", "3D"], "dealer": "\x83"}', "codec"),
        (b'{"player": ["AH", "KD"], "banker": ["2C", "3D"], "round": NaN}', "NaN"),
        (b"[" * 100_000, "recursion"),
    ],
)
def test_a_malformed_body_gets_422_in_words_for_an_integrator(open_dealer: Dealer, raw: bytes, not_said: str) -> None:
    response = post_raw(open_dealer, raw[:16000])
    assert response.status_code == 422
    [error] = errors(response)
    assert error["field"] == "body" and error["message"].startswith("malformed JSON: ")
    assert "sys." not in error["message"] and "codec" not in error["message"]
    assert "recursion" not in error["message"].lower()


def test_a_body_over_django_s_own_limit_gets_json_413_not_an_html_400(open_dealer: Dealer, settings) -> None:
    raw = json.dumps({**SEED, "dealer": "x" * 3_000_000}).encode()
    response = post_raw(open_dealer, raw)
    assert response.status_code == 413
    assert errors(response)[0]["field"] == "body"


def test_an_unknown_api_path_gets_json_404(client: Client) -> None:
    response = client.get("/api/tables/baccarat-1/nothing-here")
    assert response.status_code == 404
    assert errors(response) == [{"field": None, "message": "no such API path: see /api/docs"}]


def test_a_method_an_api_path_does_not_take_gets_json_405_saying_which_it_takes(client: Client, baccarat_1) -> None:
    response = client.delete("/api/tables/baccarat-1/rounds")
    assert response.status_code == 405 and response["Allow"] == "GET, POST"
    assert errors(response) == [{"field": None, "message": "DELETE is not taken here; this path takes GET, POST"}]


def test_a_page_that_does_not_exist_still_gets_the_html_404(client: Client) -> None:
    response = client.get("/nothing-here/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_a_host_header_not_allowed_gets_json_400_under_the_api(client: Client) -> None:
    response = client.get("/api/tables/baccarat-1/rounds", headers={"host": "evil.example"})
    assert response.status_code == 400
    assert errors(response)[0]["field"] is None


@pytest.mark.parametrize("shoe", ["\u00b2", "\u0663", "9" * 5000, "-1", "0"])
def test_a_shoe_query_that_is_not_an_ascii_number_gets_422(client: Client, baccarat_1, shoe: str) -> None:
    """'²'.isdigit() is true, and int('²') raised: a 500."""
    response = client.get("/api/tables/baccarat-1/rounds", {"shoe": shoe})
    assert response.status_code == 422
    assert errors(response)[0]["field"] == "shoe"


@pytest.mark.parametrize("number", ["0", "9" * 30, "-1"])
def test_a_shoe_number_out_of_range_in_a_path_gets_a_json_error(client: Client, baccarat_1, number: str) -> None:
    response = client.get(f"/api/tables/baccarat-1/shoes/{number}/roads")
    assert response.status_code in (404, 422)
    assert errors(response)


def test_the_openapi_schema_documents_every_status_each_operation_answers(client: Client) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    post_round = set(paths["/api/tables/{slug}/rounds"]["post"]["responses"])
    assert {"200", "201", "400", "401", "404", "409", "413", "415", "422", "429", "500", "503"} <= post_round
    assert {"201", "400", "401", "404", "429", "503"} <= set(paths["/api/tables/{slug}/shoes"]["post"]["responses"])
    assert {"200", "400", "404", "422", "503"} <= set(paths["/api/tables/{slug}/rounds"]["get"]["responses"])
