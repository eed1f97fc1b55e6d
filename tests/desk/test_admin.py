"""Admin review: staff only; void with a reason, kept for audit."""

from __future__ import annotations

import base64
import contextlib
import re

from django.contrib.admin.models import LogEntry
from django.test import Client

from tables import services
from tables.models import Round
from tests.html import find_all
from tests.rounds import SEED


def recorded_round(table) -> Round:
    services.shoe_start(table=table)
    return services.round_record(table=table, **SEED).round


def test_the_round_list_filters_and_searches_by_round_id(client: Client, baccarat_1, staff_reviewer) -> None:
    round_ = recorded_round(baccarat_1[0])
    client.force_login(staff_reviewer)
    page = client.get("/admin/tables/round/", {"q": round_.round_id})
    assert page.status_code == 200
    assert round_.round_id in page.content.decode()
    filtered = client.get("/admin/tables/round/", {"winner__exact": "B"}).content.decode()
    assert round_.round_id not in filtered


def test_a_round_is_shown_read_only_with_its_cards(client: Client, baccarat_1, staff_reviewer) -> None:
    round_ = recorded_round(baccarat_1[0])
    client.force_login(staff_reviewer)
    page = client.get(f"/admin/tables/round/{round_.pk}/change/").content.decode()
    assert "A♥" in page and "5♦" in page
    assert not find_all(page, "*", name_="player_cards")  # no input: cards cannot be edited


def test_a_shoe_is_shown_read_only_with_its_dealt_cards(client: Client, baccarat_1, staff_reviewer) -> None:
    round_ = recorded_round(baccarat_1[0])
    client.force_login(staff_reviewer)
    page = client.get(f"/admin/tables/shoe/{round_.shoe_id}/change/").content.decode()
    assert "AH3S5DJC2HAD" in page
    assert not find_all(page, "*", name_="dealt")  # recording keeps them
    assert not find_all(page, "*", name_="last_number")


def test_void_action_asks_for_a_reason_then_records_who_and_why(client: Client, baccarat_1, staff_reviewer) -> None:
    round_ = recorded_round(baccarat_1[0])
    client.force_login(staff_reviewer)
    form = client.post("/admin/tables/round/", {"action": "void_rounds", "_selected_action": [round_.pk]})
    assert form.status_code == 200
    assert "Malfunction voids all pays and plays" in form.content.decode()
    round_.refresh_from_db()
    assert not round_.voided

    empty = client.post(
        "/admin/tables/round/", {"action": "void_rounds", "_selected_action": [round_.pk], "apply": "1", "reason": ""}
    )
    assert "This field is required" in empty.content.decode()

    done = client.post(
        "/admin/tables/round/",
        {"action": "void_rounds", "_selected_action": [round_.pk], "apply": "1", "reason": "card misread"},
    )
    assert done.status_code == 302
    round_.refresh_from_db()
    assert (round_.voided, round_.void_reason, round_.voided_by) == (True, "card misread", staff_reviewer)
    assert LogEntry.objects.filter(object_id=str(round_.pk), change_message__contains="card misread").exists()


def test_admin_is_staff_only(client: Client, baccarat_1, outsider) -> None:
    recorded_round(baccarat_1[0])
    client.force_login(outsider)
    assert client.get("/admin/tables/round/").status_code == 302  # to the login page
    anonymous = Client()
    assert anonymous.get("/admin/tables/round/").status_code == 302


def test_rounds_cannot_be_added_or_deleted_in_admin(client: Client, baccarat_1, staff_reviewer) -> None:
    round_ = recorded_round(baccarat_1[0])
    client.force_login(staff_reviewer)
    assert client.get("/admin/tables/round/add/").status_code == 403
    assert client.get(f"/admin/tables/round/{round_.pk}/delete/").status_code == 403


def test_a_reviewer_cannot_rotate_a_token(client: Client, baccarat_1, desk_reviewer) -> None:
    """The probe's reviewer rotated table t3's token with view_table alone and took over
    its dealer system: the action takes a permission of its own, which reviewers lack."""
    table, token = baccarat_1
    client.force_login(desk_reviewer)
    page = client.get("/admin/tables/table/")
    assert page.status_code == 200
    offered = [option.attrs["value"] for option in find_all(page.content.decode(), "option")]
    assert "rotate_token" not in offered
    refused = client.post(
        "/admin/tables/table/", {"action": "rotate_token", "_selected_action": [table.pk], "apply": "1"}, follow=True
    )
    assert not find_all(refused.content.decode(), "code", cls="ingest-token")
    table.refresh_from_db()
    assert table.check_token(token)  # the dealer system still posts
    assert not LogEntry.objects.filter(change_message__contains="ingest token").exists()


def test_an_owner_confirms_then_sees_the_new_token_once(client: Client, baccarat_1, owner) -> None:
    """The messages cookie is signed, not encrypted (base64 showed the new token), and a
    message in the session persists until read: the token is on the answer alone."""
    table, old_token = baccarat_1
    client.force_login(owner)
    asked = client.post("/admin/tables/table/", {"action": "rotate_token", "_selected_action": [table.pk]})
    assert asked.status_code == 200
    assert find_all(asked.content.decode(), "input", name_="apply", type="submit")
    table.refresh_from_db()
    assert table.check_token(old_token)  # asking changes nothing

    done = client.post("/admin/tables/table/", {"action": "rotate_token", "_selected_action": [table.pk], "apply": "1"})
    assert done.status_code == 200
    assert "no-store" in done["Cache-Control"]
    [shown] = find_all(done.content.decode(), "code", cls="ingest-token")
    token = shown.text
    table.refresh_from_db()
    assert table.check_token(token) and not table.check_token(old_token)
    for cookie in [*done.cookies.values(), *client.cookies.values()]:
        assert token not in _decoded(cookie.value)
    assert token not in str(client.session.items())  # no message kept for later
    assert token not in client.get("/admin/tables/table/").content.decode()  # shown once
    assert LogEntry.objects.get(object_id=str(table.pk)).change_message == "Rotated the ingest token"


def _decoded(value: str) -> str:
    """A cookie's value with any base64 part decoded, as the probe read it."""
    parts = [value]
    for chunk in re.split(r"[:.]", value):
        with contextlib.suppress(ValueError):
            parts.append(base64.urlsafe_b64decode(chunk + "=" * (-len(chunk) % 4)).decode("utf-8", "replace"))
    return " ".join(parts)
