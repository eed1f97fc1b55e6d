"""Text from dealer systems shows what it says: no control reorders a page, and a name
that shows nothing is refused at ingest and shown as "—"."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tables import services
from tables.game.validation import IllegalRoundError, check_name
from tables.models import Table
from tests.dealers import Dealer
from tests.html import find_all
from tests.rounds import SEED

ZERO_WIDTH = "\u200b" * 80


@pytest.mark.parametrize(
    ("name", "refusal"),
    [
        ("\u202eannA", "a bidirectional control (U+202E) at position 0"),  # shows as "Anna"
        ("Anna \u2066", "a bidirectional control (U+2066) at position 5"),  # stays open to the end of its cell
        (ZERO_WIDTH, "no visible character"),
        ("\u200b \u200d", "no visible character"),
    ],
)
def test_a_name_that_hides_or_reorders_text_is_refused(name: str, refusal: str) -> None:
    with pytest.raises(IllegalRoundError, match=re.escape(refusal)):
        check_name("dealer", name)


@pytest.mark.parametrize("name", ["Anna", "Nguyễn Văn An", "محمد", "李娜", "Zoë-Ann O'Neil", "Somchai\u200dK"])
def test_names_in_any_script_pass(name: str) -> None:
    check_name("dealer", name)


def test_the_api_refuses_a_bidi_control_in_the_dealer_and_records_nothing(open_dealer: Dealer) -> None:
    response = open_dealer.round(**SEED, dealer="\u202eannA")
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "dealer"
    open_dealer.table.refresh_from_db()
    assert open_dealer.table.dealer_name == "Anna" and not open_dealer.table.shoes.get().rounds.exists()


def test_pages_isolate_a_dealer_s_name_and_show_a_dash_for_one_that_shows_nothing(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    round_id = services.round_record(table=table, **SEED, dealer="محمد").round.round_id
    for page in ("/tables/baccarat-1/", "/", f"/rounds/{round_id}/"):
        html = client.get(page).content.decode()
        assert [b.text for b in find_all(html, "bdi", dir="auto")][:1] == ["محمد"], page
    Table.objects.filter(pk=table.pk).update(dealer_name=ZERO_WIDTH)  # stored before names were checked
    html = client.get("/tables/baccarat-1/").content.decode()
    [dealer] = [d for d in find_all(html, "div") if "Dealer" in d.text and d.text.startswith("Dealer")]
    assert dealer.text == "Dealer—" and ZERO_WIDTH not in html
