"""Admin review: staff only; void with a reason, kept for audit."""

from __future__ import annotations

import base64
import contextlib
import re

from django.contrib.admin.models import LogEntry
from django.test import Client

from tables import services
from tables.models import Round

SEED = {"player": ["AH", "3S", "5D"], "banker": ["JC", "2H", "AD"]}


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
    assert 'name="player_cards"' not in page  # no input: cards cannot be edited


def test_a_shoe_is_shown_read_only_with_its_dealt_cards(client: Client, baccarat_1, staff_reviewer) -> None:
    round_ = recorded_round(baccarat_1[0])
    client.force_login(staff_reviewer)
    page = client.get(f"/admin/tables/shoe/{round_.shoe_id}/change/").content.decode()
    assert "AH3S5DJC2HAD" in page
    assert 'name="dealt"' not in page and 'name="last_number"' not in page  # recording keeps them


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


def test_a_rotated_token_is_shown_once_and_never_put_in_a_cookie(client: Client, baccarat_1, staff_reviewer) -> None:
    """The messages cookie is signed, not encrypted: base64 showed the new token."""
    table, old_token = baccarat_1
    client.force_login(staff_reviewer)
    response = client.post("/admin/tables/table/", {"action": "rotate_token", "_selected_action": [table.pk]})
    assert response.status_code == 302
    assert "messages" not in response.cookies
    page = client.get(response["Location"]).content.decode()
    [token] = re.findall(r"New ingest token for baccarat-1: ([\w-]+)", page)
    assert "messages" not in client.cookies or not client.cookies["messages"].value
    for cookie in client.cookies.values():
        assert token not in _decoded(cookie.value)
    table.refresh_from_db()
    assert table.check_token(token) and not table.check_token(old_token)
    assert token not in client.get("/admin/tables/table/").content.decode()  # shown once


def _decoded(value: str) -> str:
    """A cookie's value with any base64 part decoded, as the probe read it."""
    parts = [value]
    for chunk in re.split(r"[:.]", value):
        with contextlib.suppress(ValueError):
            parts.append(base64.urlsafe_b64decode(chunk + "=" * (-len(chunk) % 4)).decode("utf-8", "replace"))
    return " ".join(parts)
