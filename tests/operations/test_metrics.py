"""/metrics: the product's numbers in Prometheus's text format, for the configured
addresses and token alone."""

from __future__ import annotations

from datetime import datetime

from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from tests.dealers import Dealer
from tests.rounds import SEED


def scraped(client: Client, **headers: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain; version=0.0.4")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_rounds_recorded_and_refused_by_reason_are_counted(client: Client, open_dealer: Dealer) -> None:
    before = scraped(client)
    assert open_dealer.round(**SEED).status_code == 201
    assert open_dealer.round(player=["AS", "2S", "3S"], banker=["KS", "QS"]).status_code == 422  # no third card here
    assert open_dealer.round(**SEED, round=7).status_code == 409  # not the next round
    assert open_dealer.post("rounds", SEED, token="wrong").status_code == 401
    after = scraped(client)
    assert value(after, "baccarat_rounds_recorded_total", table="baccarat-1") == (
        value(before, "baccarat_rounds_recorded_total", table="baccarat-1") + 1
    )
    for reason in ("illegal", "round_conflict", "unauthorized"):
        assert value(after, "baccarat_rounds_refused_total", reason=reason) == (
            value(before, "baccarat_rounds_refused_total", reason=reason) + 1
        ), reason
    assert value(after, "baccarat_authentication_failures_total", kind="token") >= 1
    assert (
        value(after, "baccarat_round_record_seconds_count") >= value(before, "baccarat_round_record_seconds_count") + 2
    )


def test_cards_dealt_refused_by_reason_and_rounds_cancelled_are_counted(client: Client, open_dealer: Dealer) -> None:
    before = scraped(client)
    assert open_dealer.post("cards", {"card": "9H", "round": 1, "index": 1}).status_code == 201
    assert open_dealer.post("cards", {"card": "9H", "round": 1, "index": 1}).status_code == 200  # a retry
    assert open_dealer.post("cards", {"card": "8H", "round": 1, "index": 1}).status_code == 409
    assert open_dealer.post("cards", {"card": "8H", "side": "player"}).status_code == 422  # the banker's card
    assert open_dealer.post("rounds/current/cancel", {"reason": "misdeal"}).status_code == 200
    after = scraped(client)
    assert value(after, "baccarat_cards_dealt_total") == value(before, "baccarat_cards_dealt_total") + 1
    for reason in ("illegal", "round_conflict"):
        assert value(after, "baccarat_cards_refused_total", reason=reason) == (
            value(before, "baccarat_cards_refused_total", reason=reason) + 1
        ), reason
    assert value(after, "baccarat_rounds_cancelled_total", source="api") == (
        value(before, "baccarat_rounds_cancelled_total", source="api") + 1
    )
    assert value(after, "baccarat_card_deal_seconds_count") >= value(before, "baccarat_card_deal_seconds_count") + 4


def test_the_open_tables_last_activity_and_every_round_without_odds_are_read(
    client: Client, open_dealer: Dealer
) -> None:
    recorded = open_dealer.round(**SEED).json()["round"]
    samples = scraped(client)
    last = value(samples, "baccarat_table_last_activity_timestamp_seconds", table="baccarat-1")
    assert abs(last - datetime.fromisoformat(recorded["created_at"]).timestamp()) < 1
    # Odds are queued once a round commits, which this test's transaction never does.
    assert value(samples, "baccarat_odds_backlog_rounds") == 1
    # A closed shoe's rounds without odds count too (issue 49, item 10: a bulk-loaded
    # history the sweep works through showed a backlog of 0).
    assert open_dealer.post("shoes", {}).status_code == 201
    assert value(scraped(client), "baccarat_odds_backlog_rounds") == 1


def test_metrics_are_refused_to_other_addresses_and_answered_with_the_token(client: Client, db, settings) -> None:
    outside = {"REMOTE_ADDR": "203.0.113.9"}
    response = client.get("/metrics", **outside)
    assert response.status_code == 403 and response.json()["errors"][0]["field"] == "Authorization"
    settings.METRICS_TOKEN = "s3cret-metrics-token"
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}, **outside).status_code == 403
    assert (
        client.get("/metrics", headers={"Authorization": "Bearer s3cret-metrics-token"}, **outside).status_code == 200
    )
