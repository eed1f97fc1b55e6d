"""Failed authentications per client address: 401 up to the limit in a window, then 429
with Retry-After, while a dealer system with the right token is never slowed."""

from __future__ import annotations

import pytest

from tables.access import throttles
from tables.models import Round, Shoe
from tests.dealers import Dealer
from tests.rounds import SEED

LIMIT = 20  # AUTH_FAILURES_LIMIT's default


class FakeClock:
    def __init__(self) -> None:
        self.now = 60.0 * 16_667 + 20  # 20 s into a 60 s window

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    clock = FakeClock()
    monkeypatch.setattr(throttles.failures, "clock", clock)
    return clock


def wrong(dealer: Dealer, address: str = "203.0.113.7"):
    return dealer.client.post(
        "/api/tables/baccarat-1/shoes",
        headers={"Authorization": "Bearer not-the-token"},
        REMOTE_ADDR=address,
    )


def test_after_the_limit_of_wrong_tokens_an_address_gets_429_with_retry_after(dealer: Dealer, clock) -> None:
    """The probe sent 3,000 wrong tokens at 229/s: all 401, never a 429."""
    assert [wrong(dealer).status_code for _ in range(LIMIT)] == [401] * LIMIT
    throttled = wrong(dealer)
    assert throttled.status_code == 429
    assert throttled["Retry-After"] == "40"  # the rest of the window
    assert throttled.json()["errors"][0]["field"] == "Authorization"
    assert not Shoe.objects.exists()


def test_a_missing_token_counts_as_a_failure(dealer: Dealer, clock) -> None:
    for _ in range(LIMIT):
        dealer.client.post("/api/tables/baccarat-1/shoes", REMOTE_ADDR="203.0.113.7")
    assert dealer.client.post("/api/tables/baccarat-1/shoes", REMOTE_ADDR="203.0.113.7").status_code == 429


def test_the_right_token_is_never_slowed_even_from_a_throttled_address(dealer: Dealer, clock) -> None:
    for _ in range(LIMIT + 5):
        wrong(dealer)
    headers = {"Authorization": f"Bearer {dealer.token}"}
    assert (
        dealer.client.post("/api/tables/baccarat-1/shoes", headers=headers, REMOTE_ADDR="203.0.113.7").status_code
        == 201
    )
    body = SEED
    response = dealer.client.post(
        "/api/tables/baccarat-1/rounds",
        body,
        content_type="application/json",
        headers=headers,
        REMOTE_ADDR="203.0.113.7",
    )
    assert response.status_code == 201 and Round.objects.count() == 1


def test_other_addresses_are_not_throttled(dealer: Dealer, clock) -> None:
    for _ in range(LIMIT + 1):
        wrong(dealer)
    assert wrong(dealer, address="198.51.100.2").status_code == 401


def test_the_next_window_starts_afresh(dealer: Dealer, clock) -> None:
    for _ in range(LIMIT + 1):
        wrong(dealer)
    clock.now += 40
    assert wrong(dealer).status_code == 401


def test_behind_the_tls_proxy_the_client_is_the_address_the_proxy_names(dealer: Dealer, clock, settings) -> None:
    settings.HTTPS = True
    for _ in range(LIMIT + 1):
        dealer.client.post(
            "/api/tables/baccarat-1/shoes", headers={"X-Real-IP": "203.0.113.9"}, REMOTE_ADDR="127.0.0.1", secure=True
        )
    other = dealer.client.post(
        "/api/tables/baccarat-1/shoes", headers={"X-Real-IP": "203.0.113.10"}, REMOTE_ADDR="127.0.0.1", secure=True
    )
    assert other.status_code == 401
