"""A shoe start retried with its Idempotency-Key (issue 49, item 10): a retry that came
after the first round ended that shoe and opened a new one; now it is answered with the
shoe the key started, whatever was dealt since."""

from __future__ import annotations

import pytest
from django.test import Client

from tables import services
from tables.models import Shoe
from tests.dealers import Dealer
from tests.rounds import SEED

pytestmark = pytest.mark.django_db


def start(dealer: Dealer, key: str) -> object:
    return dealer.client.post(
        f"/api/tables/{dealer.table.slug}/shoes",
        data="",
        content_type="application/json",
        headers={"Authorization": f"Bearer {dealer.token}", "Idempotency-Key": key},
    )


def test_a_start_retried_after_the_first_round_answers_the_shoe_its_key_started(dealer: Dealer) -> None:
    first = start(dealer, "0b7c6b1e-5d2a-4f5e-9c53-2f0d7e1a9b11")
    assert first.status_code == 201
    assert dealer.round(**SEED).status_code == 201
    retried = start(dealer, "0b7c6b1e-5d2a-4f5e-9c53-2f0d7e1a9b11")
    assert retried.status_code == 200 and retried.json()["shoe"]["number"] == 1
    assert list(Shoe.objects.values_list("number", "state", "last_number")) == [(1, "open", 1)]
    # Another key is another start: the next shoe.
    assert start(dealer, "next-shoe-2").json()["shoe"]["number"] == 2
    assert start(dealer, "0b7c6b1e-5d2a-4f5e-9c53-2f0d7e1a9b11").json()["shoe"]["number"] == 1  # still its shoe


@pytest.mark.parametrize("key", ["x" * 65, "two words", "ключ"])
def test_a_key_that_is_not_one_is_a_422_naming_it_and_nothing_starts(dealer: Dealer, key: str) -> None:
    refused = start(dealer, key)
    assert refused.status_code == 422
    assert [e["field"] for e in refused.json()["errors"]] == ["Idempotency-Key"]
    assert not Shoe.objects.exists()


def test_the_key_is_the_table_s_own(dealer: Dealer, client: Client) -> None:
    assert start(dealer, "shared-key").status_code == 201
    table, token = services.table_create(slug="baccarat-2", name="Baccarat 2")
    other = start(Dealer(client, table, token), "shared-key")
    assert other.status_code == 201 and other.json()["shoe"]["number"] == 1
    assert Shoe.objects.count() == 2
