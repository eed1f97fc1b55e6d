"""Each audience sees what it may: late in a shoe, when a side bet's return on the cards
left favours the player, no public page, API answer or push of a table carries a number
its audience profile keeps from the public (found by value, in every form a page writes a
return: a percentage to two or three places, a chart's point, a stored fraction); the
desk shows them all."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from tables import live, services
from tables.game.audience import MAIN_BETS, Audience
from tables.game.bets import BetType
from tables.live import push
from tables.live.groups import alerts_group, languages, lobby_group, table_group
from tables.models import AudienceChange, Round, Table
from tables.pages import odds_panel
from tests.pushes import Recorder, page_opens
from tests.shuffled import dealt_with_odds, shuffled_shoe

PUBLIC_PAGES = [
    "/",
    "/lobby/screen/",
    "/good-roads/",
    "/tables/baccarat-1/",
    "/tables/baccarat-1/display/",
    "/tables/baccarat-1/odds/",
    "/tables/baccarat-1/asks/",
    "/tables/baccarat-1/shoes/1/cards/",
    "/api/tables/baccarat-1/roads",
    "/api/tables/baccarat-1/rounds",
    "/api/tables/baccarat-1/rounds/current",
    "/api/openapi.json",
]


def forms(share: float) -> set[str]:
    """Every way a page writes a return (a fraction of the stake): as a percentage to
    three places (the odds panel) or two (cards, alerts, the chart's points), and as the
    stored fraction; only forms of four digits or more, which no other number on a page
    matches by chance."""
    percent = 100 * share
    written = {
        f"{abs(percent):.4f}",
        f"{abs(percent):.3f}",
        f"{abs(percent):.2f}",
        str(round(percent, 2)),
        str(round(share, 8)),
    }
    return {form.lstrip("-") for form in written if sum(ch.isdigit() for ch in form) >= 4}


def forbidden_numbers(
    stored: dict[str, Any], full: dict[str, float], shown: Iterable[BetType], history: Iterable[dict[str, Any]]
) -> set[str]:
    """The forms of the returns on the cards left (and their changes from the full shoe)
    of every bet not ``shown``, less any form a number the audience may see also takes:
    a full-shoe return (a return that has not moved is written as it), or a shown bet's
    return after any round of the shoe (``history``: the chart draws each)."""
    shown = set(shown)
    hidden, allowed = set(), set()
    for bet in BetType:
        now, whole = stored["returns"][bet.value], full[bet.value]
        (allowed if bet in shown else hidden).update(forms(now) | forms(now - whole))
        allowed |= forms(whole)
    for earlier in history:
        for bet in shown:
            allowed |= forms(earlier["returns"][bet.value])
    return hidden - allowed


def cards_left_said(text: str, count: int) -> bool:
    return bool(re.search(rf"\b{count} cards? left\b", text)) or bool(re.search(rf'"cards":\s*{count}\b', text))


@pytest.fixture
def late_shoe(baccarat_1: tuple[Table, str]) -> tuple[Table, Round]:
    """80 rounds of a shuffled shoe, odds stored after each: after the 80th, two side bets
    return more than their stake on the cards left."""
    table, _ = baccarat_1
    services.shoe_start(table=table)
    cards = shuffled_shoe(1)
    dealt_with_odds(table, cards, 80)
    last = Round.objects.order_by("-pk").first()
    assert last is not None and last.number == 80
    return table, last


def everything_public(table: Table, last: Round, client: Client) -> str:
    """Every public page and API answer of the table, and every message a round and its
    odds push (the table's live part whole and as a delta, its odds, its lobby card, the
    good-road alerts), as one text."""
    texts = [client.get(path).content.decode() for path in PUBLIC_PAGES]
    texts.append(client.get(f"/rounds/{last.round_id}/").content.decode())
    texts.append(client.get(f"/api/rounds/{last.round_id}").content.decode())
    recorder = Recorder()
    ledger = live.scheduler().ledger
    page_opens(
        *(g for lang in languages() for g in (table_group("baccarat-1", lang), lobby_group(lang), alerts_group(lang)))
    )
    push.publish_table(table.pk, sender=recorder, ledger=ledger)  # whole: nothing pushed before
    push.publish_odds(table.pk, sender=recorder, ledger=ledger)
    texts += [message["html"] for _, message in recorder.sent]
    return "\n".join(texts)


@pytest.mark.parametrize("audience", list(Audience))
def test_no_public_page_api_answer_or_push_carries_a_number_the_tables_audience_may_not_see(
    late_shoe: tuple[Table, Round], client: Client, audience: Audience
) -> None:
    table, last = late_shoe
    stored = last.odds
    assert stored is not None and max(stored["returns"][bet.value] for bet in BetType if bet not in MAIN_BETS) > 0
    services.table_audience_set(table=table, audience=audience, user=None)
    full = {bet.value: float(o.expected_return) for bet, o in odds_panel.full_shoe_odds(table).bets.items()}
    shown = {Audience.FULL_SHOE: [], Audience.MAIN_BETS: MAIN_BETS, Audience.EVERYTHING: list(BetType)}[audience]
    public = everything_public(table, last, client)
    history = Round.objects.filter(shoe=last.shoe).values_list("odds", flat=True)
    # Whole numbers as written, not substrings: a time's "10.219" seconds holds no "0.219".
    written = set(re.findall(r"\d+(?:\.\d+)?", public))
    found = sorted(forbidden_numbers(stored, full, shown, history) & written)
    assert found == []
    assert cards_left_said(public, stored["cards"]) is (audience == Audience.EVERYTHING)
    # What it may see is there: the test finds a number that is on the page.
    for bet in shown:
        assert forms(stored["returns"][bet.value]) & set(re.findall(r"[\d.]+", public)), bet
    assert ("Training room" in public) is (audience == Audience.EVERYTHING)


def test_the_desk_sees_every_return_on_the_cards_left_whatever_the_public_may(
    late_shoe: tuple[Table, Round], client: Client
) -> None:
    table, last = late_shoe
    assert table.audience == Audience.FULL_SHOE  # the safe default
    client.force_login(User.objects.create_superuser("owner", password="x"))
    desk = client.get(f"/admin/tables/round/{last.pk}/change/").content.decode()
    assert last.odds is not None
    for bet in BetType:
        assert forms(last.odds["returns"][bet.value]) & set(re.findall(r"[\d.]+", desk)), bet
    assert f"{last.odds['cards']} cards left" in desk


def test_an_owner_chooses_the_audience_in_admin_and_each_change_is_kept_with_who_and_when(
    baccarat_1: tuple[Table, str], client: Client
) -> None:
    table, _ = baccarat_1
    owner = User.objects.create_superuser("owner", password="x")
    client.force_login(owner)
    url = f"/admin/tables/table/{table.pk}/change/"
    form = client.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name != "paytable"}
    data |= {"paytable": "{}", "limits": "{}", "audience": "main_bets"}
    data |= {"audience_changes-TOTAL_FORMS": "0", "audience_changes-INITIAL_FORMS": "0"}
    data |= {"created_at_0": "2026-11-29", "created_at_1": "10:00:00"}
    answer = client.post(url, data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    table.refresh_from_db()
    assert table.audience == "main_bets"
    [change] = AudienceChange.objects.all()
    assert (change.previous, change.audience, change.username, change.user) == (
        "full_shoe",
        "main_bets",
        "owner",
        owner,
    )
    assert "Banker, Player and Tie remaining-shoe odds public" in client.get(url).content.decode()


def test_only_an_owner_may_change_it_a_staff_member_who_edits_tables_sees_it_read_only(
    baccarat_1: tuple[Table, str], client: Client
) -> None:
    table, _ = baccarat_1
    editor = User.objects.create_user("editor", password="x", is_staff=True)
    editor.user_permissions.add(*Permission.objects.filter(codename__in=["view_table", "change_table"]))
    client.force_login(editor)
    url = f"/admin/tables/table/{table.pk}/change/"
    page = client.get(url)
    assert "audience" not in page.context["adminform"].form.fields
    assert "Full-shoe returns only" in page.content.decode()
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name != "paytable"}
    data |= {"paytable": "{}", "limits": "{}", "audience": "everything"}
    data |= {"audience_changes-TOTAL_FORMS": "0", "audience_changes-INITIAL_FORMS": "0"}
    data |= {"created_at_0": "2026-11-29", "created_at_1": "10:00:00"}
    assert client.post(url, data).status_code == 302
    table.refresh_from_db()
    assert table.audience == "full_shoe" and not AudienceChange.objects.exists()


def test_setting_the_audience_it_has_changes_nothing_and_keeps_nothing(baccarat_1: tuple[Table, str]) -> None:
    table, _ = baccarat_1
    assert services.table_audience_set(table=table, audience=Audience.FULL_SHOE, user=None) is False
    assert not AudienceChange.objects.exists()


def test_existing_tables_and_new_ones_start_on_the_safe_default(baccarat_1: tuple[Table, str]) -> None:
    table, _ = baccarat_1
    assert Table.objects.get(pk=table.pk).audience == Audience.FULL_SHOE
    assert Table._meta.get_field("audience").default == Audience.FULL_SHOE.value
