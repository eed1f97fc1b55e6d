"""The reviewer's desk in admin: a round's read-only page, voids with a reason kept in an
append-only audit trail, who may void, the Transaction ID box and the index's glance."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.template.loader import render_to_string
from django.test import Client

from tables import selectors, services
from tables.demo.simulator import TableDealer
from tables.game.bets import BetType
from tables.models import AppendOnlyError, Round, RoundAudit, Table
from tests.html import Prefix, find, find_all


def dealt_rounds(table: Table, count: int) -> list[Round]:
    dealer = TableDealer(table.pk, random.Random(19))
    return [dealer.step() for _ in range(count)]


@pytest.fixture
def rounds(baccarat_1) -> list[Round]:
    return dealt_rounds(baccarat_1[0], 5)


@pytest.fixture
def owner(db) -> User:
    return User.objects.create_superuser("owner", password="pw-owner-1")


@pytest.fixture
def reviewer(db) -> User:
    user = User.objects.create_user("rita", password="pw-rita-1", is_staff=True)
    user.groups.add(Group.objects.get(name="reviewer"))
    return user


@pytest.fixture
def viewer(db) -> User:
    """Staff who may look at rounds but was never given the void permission."""
    user = User.objects.create_user("victor", password="pw-victor-1", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_round", "view_shoe", "view_table"]))
    return user


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def void(client: Client, round_: Round, reason: str = "card misread"):
    return client.post(f"/admin/tables/round/{round_.pk}/void/", {"reason": reason})


def odds_rows(page: str) -> dict[str, tuple[str, str]]:
    """A round page's odds table: each bet's row header, and the class and text of the cell beside it."""
    shown = {}
    for row in find_all(find(page, "table", cls="desk-odds").html, "tr"):
        headers, cells = find_all(row.html, "th", scope="row"), find_all(row.html, "td")
        if headers and cells:
            shown[headers[0].text] = (cells[0].attrs.get("class", ""), cells[0].text)
    return shown


# --- Permissions: an owner, a reviewer, a staff member without the permission, an outsider.


def test_the_reviewer_group_views_everything_voids_rounds_cancels_misdeals_handles_alarms_and_nothing_else(db) -> None:
    granted = set(Group.objects.get(name="reviewer").permissions.values_list("codename", flat=True))
    assert granted == {
        "view_table", "view_shoe", "view_round", "view_roundaudit", "void_round",
        "view_roundinprogress", "view_roundcancel", "cancel_round",
        "view_alarm", "view_alarmnote", "handle_alarm", "view_webhookdelivery", "view_webhookattempt",
    }  # fmt: skip


@pytest.mark.parametrize("who", ["owner", "reviewer"])
def test_an_owner_and_a_reviewer_void_a_round_from_its_page(who: str, rounds, request) -> None:
    user = request.getfixturevalue(who)
    client, round_ = logged_in(user), rounds[2]
    page = client.get(f"/admin/tables/round/{round_.pk}/change/").content.decode()
    assert find_all(page, "a", href=f"/admin/tables/round/{round_.pk}/void/")  # the Void round button
    form = client.get(f"/admin/tables/round/{round_.pk}/void/").content.decode()
    assert "Malfunction voids all pays and plays" in form and find_all(form, "textarea", name_="reason")
    assert void(client, round_).status_code == 302
    round_.refresh_from_db()
    assert (round_.voided, round_.void_reason, round_.voided_by) == (True, "card misread", user)
    [event] = RoundAudit.objects.filter(round=round_)
    assert (event.action, event.username, event.reason) == ("void", user.username, "card misread")
    assert event.at == round_.voided_at


def test_a_voided_rounds_bets_read_as_void_not_as_won(owner, rounds) -> None:
    client, round_ = logged_in(owner), rounds[2]
    before = client.get(f"/admin/tables/round/{round_.pk}/change/").content.decode()
    assert not find_all(before, "table", cls="desk-bets-voided")
    assert void(client, round_).status_code == 302
    after = client.get(f"/admin/tables/round/{round_.pk}/change/").content.decode()
    assert find_all(after, "table", cls="desk-bets-voided") and find_all(after, "p", cls="desk-bets-void")
    # When it was voided, in the zone the round's own time is given in.
    [note] = find_all(after, "p", cls="desk-void-note")
    assert " UTC by " in note.text and "card misread" in note.text


def test_staff_without_the_void_permission_is_refused_and_nothing_changes(viewer, rounds) -> None:
    client, round_ = logged_in(viewer), rounds[2]
    page = client.get(f"/admin/tables/round/{round_.pk}/change/")
    assert page.status_code == 200 and b"/void/" not in page.content  # may look, no button
    assert client.get(f"/admin/tables/round/{round_.pk}/void/").status_code == 403
    assert void(client, round_).status_code == 403
    action = {"action": "void_rounds", "_selected_action": [round_.pk], "apply": "1", "reason": "misread"}
    assert client.post("/admin/tables/round/", action).status_code == 403
    round_.refresh_from_db()
    assert not round_.voided and not RoundAudit.objects.exists()


def test_an_outsider_is_sent_to_log_in_and_nothing_changes(outsider, rounds) -> None:
    client, round_ = logged_in(outsider), rounds[2]
    assert client.get(f"/admin/tables/round/{round_.pk}/change/").status_code == 302
    assert void(client, round_).status_code == 302  # to the login page
    assert not Round.objects.filter(voided=True).exists() and not RoundAudit.objects.exists()


def test_a_reviewer_can_change_nothing_else(reviewer, baccarat_1) -> None:
    client = logged_in(reviewer)
    assert client.get("/admin/tables/table/add/").status_code == 403
    assert client.get(f"/admin/tables/table/{baccarat_1[0].pk}/change/").status_code == 200  # to read
    assert client.post(f"/admin/tables/table/{baccarat_1[0].pk}/change/", {"name": "Renamed"}).status_code == 403
    assert client.get("/admin/auth/user/").status_code == 403


# --- Voids.


def test_a_void_needs_a_reason_and_an_empty_one_changes_nothing(owner, rounds) -> None:
    client, round_ = logged_in(owner), rounds[0]
    response = void(client, round_, reason="   ")
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    round_.refresh_from_db()
    assert not round_.voided and not RoundAudit.objects.exists()


def test_a_round_is_voided_once(owner, rounds) -> None:
    client, round_ = logged_in(owner), rounds[0]
    void(client, round_)
    void(client, round_, reason="again")
    assert RoundAudit.objects.filter(round=round_).count() == 1
    round_.refresh_from_db()
    assert round_.void_reason == "card misread"


def test_the_list_action_stays_and_writes_an_audit_event_per_round(owner, rounds) -> None:
    action = {"action": "void_rounds", "_selected_action": [r.pk for r in rounds[:2]], "apply": "1", "reason": "x"}
    assert logged_in(owner).post("/admin/tables/round/", action).status_code == 302
    assert set(RoundAudit.objects.values_list("round_id", flat=True)) == {rounds[0].pk, rounds[1].pk}


def test_audit_events_are_append_only(owner, rounds) -> None:
    services.round_void(round_=rounds[0], reason="card misread", user=owner)
    event = RoundAudit.objects.get()
    event.reason = "nothing happened"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    client = logged_in(owner)
    assert client.get("/admin/tables/roundaudit/").status_code == 200
    assert client.get("/admin/tables/roundaudit/add/").status_code == 403
    assert client.get(f"/admin/tables/roundaudit/{event.pk}/delete/").status_code == 403
    audited = client.get(f"/admin/tables/roundaudit/{event.pk}/change/").content.decode()
    assert not find_all(audited, "*", name_="reason")
    assert RoundAudit.objects.get().reason == "card misread"


def test_a_void_is_shown_on_the_round_and_in_its_shoes_events(owner, rounds) -> None:
    services.round_void(round_=rounds[1], reason="card misread", user=owner)
    page = logged_in(owner).get(f"/admin/tables/round/{rounds[1].pk}/change/").content.decode()
    assert "VOIDED" in page and find_all(page, "tr", cls="desk-audit-event") and "card misread" in page
    events = list(selectors.shoe_audit_events(shoe=rounds[1].shoe))
    assert [e.round_id for e in events] == [rounds[1].pk]
    partial = render_to_string("admin/tables/_audit_events.html", {"events": events})
    assert rounds[1].round_id in partial and "owner" in partial and "card misread" in partial


def test_the_exports_carry_each_rounds_audit_events(owner, rounds) -> None:
    services.round_void(round_=rounds[0], reason="card misread", user=owner)
    client = logged_in(owner)
    exported = json.loads(b"".join(client.get("/review/rounds.json").streaming_content))
    first = next(r for r in exported if r["id"] == rounds[0].round_id)
    assert first["voided_by"] == "owner"
    assert [(e["action"], e["by"], e["reason"]) for e in first["audit"]] == [("void", "owner", "card misread")]
    text = b"".join(client.get("/review/rounds.csv").streaming_content).decode()
    row = next(r for r in csv.DictReader(io.StringIO(text)) if r["id"] == rounds[0].round_id)
    assert "void by owner: card misread" in row["audit"]


# --- The round's page.


def test_a_rounds_page_shows_what_a_dispute_needs_and_nothing_to_save(owner, rounds) -> None:
    round_ = rounds[2]
    Round.objects.filter(pk=round_.pk).update(odds={"cards": 400, "returns": {"banker": -0.0106}})
    page = logged_in(owner).get(f"/admin/tables/round/{round_.pk}/change/").content.decode()
    assert find_all(page, "button", data_copy=round_.round_id)  # the copy button
    assert find_all(page, "span", cls="card") and find_all(page, "span", cls="hand-score")  # the table page's hands
    assert all(bet.label in page for bet in BetType)  # all 14 bets
    assert odds_rows(page)["Banker"] == ("num", "−1.0600%")  # the odds after it, a true minus
    # Outlined on the Bead Plate and the Big Road (derived ones start later).
    assert len(find_all(page, "rect", cls="marked")) >= 2
    assert f"/admin/tables/round/{rounds[1].pk}/change/" in page  # previous
    assert f"/admin/tables/round/{rounds[3].pk}/change/" in page  # next
    assert f"/admin/tables/shoe/{round_.shoe_id}/change/" in page
    assert not find_all(page, "*", name_="_save") and not find_all(page, "textarea")  # nothing can be saved


def test_a_rounds_page_in_chinese_names_the_bets_of_its_odds_in_chinese(owner, rounds) -> None:
    round_ = rounds[2]
    Round.objects.filter(pk=round_.pk).update(odds={"cards": 400, "returns": {"banker": -0.0106, "player": -0.0124}})
    page = logged_in(owner).get(f"/admin/tables/round/{round_.pk}/change/?lang=zh-hans").content.decode()
    odds = odds_rows(page)
    assert odds["庄"] == ("num", "−1.0600%")
    assert "闲" in odds and "Banker" not in find(page, "table", cls="desk-odds").html


def test_a_change_list_in_thai_from_its_address_lists_its_rounds_in_thai(owner, rounds) -> None:
    answer = logged_in(owner).get("/admin/tables/round/?lang=th")
    assert answer.status_code == 200, "not sent to ?e=1: the language is not a filter of the rounds"
    page = answer.content.decode()
    assert find(page, "html").attrs["lang"] == "th"
    assert all(round_.round_id in page for round_ in rounds)
    # The admin's own words Django's Thai catalogue lacks, ours: its nav filter, its scripts' months.
    assert find(page, "input", id="nav-filter").attrs["placeholder"] == "เริ่มพิมพ์เพื่อกรอง…"
    catalogue = logged_in(owner).get("/admin/jsi18n/?lang=th").content.decode()
    assert json.dumps("ม.ค.") in catalogue  # January, short, as the admin's calendar writes it


def test_a_rounds_page_says_why_each_derived_road_marked_it_red_or_blue(owner, baccarat_1) -> None:
    table = baccarat_1[0]
    services.shoe_start(table=table)
    for player, banker in ((["9H", "KC"], ["2S", "5S"]), (["2H", "3D"], ["9S", "KH"]), (["2C", "3C"], ["9D", "KD"])):
        services.round_record(table=table, player=player, banker=banker)  # Player, Banker, Banker again
    third = Round.objects.get(shoe__table=table, number=3)
    page = logged_in(owner).get(f"/admin/tables/round/{third.pk}/change/").content.decode()
    (why,) = find_all(page, "li", data_compared=Prefix(""))  # only the Big Eye Road has begun
    assert why.text.startswith("Big Eye Road") and "Blue: the same result again, so in column 1" in why.text
    assert why.attrs["data-compared"] == "0,1 0,0" and why.attrs["tabindex"] == "0"


# --- Lookup and lists.


def test_the_transaction_id_box_goes_straight_to_the_round(reviewer, rounds) -> None:
    client = logged_in(reviewer)
    assert find_all(client.get("/admin/").content.decode(), "input", name_="round_id")
    found = client.get("/admin/tables/round/lookup/", {"round_id": f" {rounds[3].round_id.lower()} "})
    assert found["Location"] == f"/admin/tables/round/{rounds[3].pk}/change/"
    Round.objects.filter(pk=rounds[2].pk).update(round_id="01JC8Z4Q2M7X9ABC")
    read_over_the_phone = client.get("/admin/tables/round/lookup/", {"round_id": "oIjc8z4q2m7x9abc"})
    assert read_over_the_phone["Location"] == f"/admin/tables/round/{rounds[2].pk}/change/"  # O as 0, I as 1
    unknown = client.get("/admin/tables/round/lookup/", {"round_id": "NOSUCHROUND"}, follow=True)
    assert "No round has the Transaction ID NOSUCHROUND." in unknown.content.decode()


def test_rounds_are_listed_newest_first(reviewer, rounds) -> None:
    page = logged_in(reviewer).get("/admin/tables/round/").content.decode()
    positions = [page.index(r.round_id) for r in rounds]
    assert positions == sorted(positions, reverse=True)


def test_the_index_shows_flagged_shoes_and_recent_voids(owner, baccarat_1) -> None:
    played = dealt_rounds(baccarat_1[0], 40)
    Round.objects.filter(pk__in=[r.pk for r in played]).update(winner="B")  # a shoe no fair deal makes
    services.round_void(round_=played[0], reason="card misread", user=owner)
    page = logged_in(owner).get("/admin/").content.decode()
    flagged = find(page, "ul", id="flagged-shoes").html
    assert find_all(flagged, "a", href=f"/admin/tables/shoe/{played[0].shoe_id}/change/")
    voids = find(page, "ul", id="recent-voids")
    assert find_all(voids.html, "a", href=f"/admin/tables/round/{played[0].pk}/change/")
    assert "card misread" in voids.text
