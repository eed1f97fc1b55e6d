"""A reviewer cancels a round in progress in admin (issue 34): a reason required, the
cancel kept like a void (who, when, why), never changed or deleted; the round being dealt
shown on its shoe's page; the cancelled rounds listed read-only, at a bounded cost."""

from __future__ import annotations

import html

from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission, User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tables import services
from tables.models import Round, RoundCancel, RoundInProgress, Shoe
from tests.html import find_all

# P 9♥, B 3♣, P K♠: the Player's 9 so far, the Banker's card next.
DEALT = ["9H", "3C", "KS"]


def dealing(table, cards: list[str] = DEALT) -> Shoe:
    shoe = services.shoe_start(table=table).shoe
    for code in cards:
        services.card_deal(table=table, card=code)
    return shoe


def cancel_page(shoe: Shoe) -> str:
    return f"/admin/tables/shoe/{shoe.pk}/cancel-round/"


def messages_of(response) -> list[str]:
    return [m.text.strip() for m in find_all(response.content.decode(), "li", cls="success")] + [
        m.text.strip() for m in find_all(response.content.decode(), "li", cls="error")
    ]


def test_the_shoe_page_shows_the_round_being_dealt_and_a_reviewer_cancels_it(
    client: Client, baccarat_1, desk_reviewer
) -> None:
    shoe = dealing(baccarat_1[0])
    client.force_login(desk_reviewer)
    page = client.get(f"/admin/tables/shoe/{shoe.pk}/change/").content.decode()
    [section] = find_all(page, "section", id="round-in-progress")
    assert "Round 1 · dealing" in section.text
    assert "9♥" in section.text and "3♣" in section.text and "K♠" in section.text
    assert "Next card: Banker" in section.text
    [button] = find_all(page, "a", id="cancel-round")
    assert button.attrs["href"] == cancel_page(shoe)

    asked = client.get(cancel_page(shoe))
    assert asked.status_code == 200
    assert find_all(asked.content.decode(), "textarea", name_="reason")
    assert RoundInProgress.objects.filter(shoe=shoe).exists(), "asking changes nothing"

    done = client.post(cancel_page(shoe), {"reason": "  card exposed  ", "round": "1"}, follow=True)
    assert done.redirect_chain[-1][0] == f"/admin/tables/shoe/{shoe.pk}/change/"
    assert any("Round 1 of Baccarat 1 · shoe 1 is cancelled (cards 9♥ 3♣ K♠)" in text for text in messages_of(done)), (
        messages_of(done)
    )
    cancel = RoundCancel.objects.get()
    assert (cancel.shoe, cancel.number, cancel.cards, cancel.reason) == (shoe, 1, "9H3CKS", "card exposed")
    assert (cancel.source, cancel.user, cancel.username) == (RoundCancel.Source.ADMIN, desk_reviewer, "desk-reviewer")
    assert cancel.dealer_name == "Anna"
    assert not RoundInProgress.objects.exists() and not Round.objects.exists()
    assert LogEntry.objects.filter(object_id=str(shoe.pk), change_message__contains="card exposed").exists()
    after = done.content.decode()
    assert not find_all(after, "*", id="round-in-progress")
    [listed] = find_all(after, "table", id="cancelled-rounds")
    assert "card exposed" in listed.text and "desk-reviewer" in listed.text
    # The cards went back as not dealt: the next round may deal them again.
    services.card_deal(table=baccarat_1[0], card="9H")
    assert RoundInProgress.objects.get().number == 1


def test_a_blank_reason_is_a_form_error_and_changes_nothing(client: Client, baccarat_1, desk_reviewer) -> None:
    shoe = dealing(baccarat_1[0])
    client.force_login(desk_reviewer)
    for reason in ["", "   "]:
        refused = client.post(cancel_page(shoe), {"reason": reason, "round": "1"})
        assert refused.status_code == 200
        assert "This field is required" in refused.content.decode()
    assert RoundInProgress.objects.get(shoe=shoe).cards == "9H3CKS"
    assert not RoundCancel.objects.exists()


def test_no_round_in_progress_is_a_clear_message(client: Client, baccarat_1, desk_reviewer) -> None:
    shoe = dealing(baccarat_1[0], [])
    client.force_login(desk_reviewer)
    page = client.get(f"/admin/tables/shoe/{shoe.pk}/change/").content.decode()
    assert not find_all(page, "*", id="cancel-round") and find_all(page, "p", id="no-round-in-progress")
    answered = client.post(cancel_page(shoe), {"reason": "misdeal"}, follow=True)
    assert "No round is being dealt in Baccarat 1 · shoe 1: nothing to cancel." in messages_of(answered)
    assert not RoundCancel.objects.exists()


def test_a_confirm_cancels_the_round_it_was_shown_not_the_next_one(client: Client, baccarat_1, desk_reviewer) -> None:
    """The round the reviewer saw completed meanwhile and the next one began: nothing
    is cancelled, and the reviewer is told to look again."""
    table = baccarat_1[0]
    shoe = dealing(table, ["9H", "3C", "KS", "4C"])  # round 1 complete (a natural 9)
    services.card_deal(table=table, card="2D")  # round 2 begins
    client.force_login(desk_reviewer)
    answered = client.post(cancel_page(shoe), {"reason": "misdeal", "round": "1"}, follow=True)
    assert "Round 1 of Baccarat 1 · shoe 1 is no longer being dealt (round 2 is)" in answered.content.decode()
    assert RoundInProgress.objects.get(shoe=shoe).number == 2 and not RoundCancel.objects.exists()


def test_a_stale_confirm_never_cancels_the_same_round_dealt_again(client: Client, baccarat_1, desk_reviewer) -> None:
    """Issue 49, item 10: round 1 shown to a reviewer was cancelled by the dealer system
    and dealt again under its number; the reviewer's confirm, sent later, cancelled the
    re-dealt round. A confirm is bound to the deal it showed."""
    table = baccarat_1[0]
    shoe = dealing(table)
    client.force_login(desk_reviewer)
    asked = client.get(cancel_page(shoe)).content.decode()
    [deal] = [i.attrs["value"] for i in find_all(asked, "input", name_="deal")]
    services.round_cancel(table=table, reason="misdeal, from the table")
    services.card_deal(table=table, card="2D")  # round 1 again
    answered = client.post(cancel_page(shoe), {"reason": "misdeal", "round": "1", "deal": deal}, follow=True)
    assert "Round 1 of Baccarat 1 · shoe 1 was cancelled and is being dealt again since" in answered.content.decode()
    assert RoundInProgress.objects.get(shoe=shoe).cards == "2D"
    assert RoundCancel.objects.count() == 1  # the table's own

    # The shoes list's action the same way.
    selected = {"action": "cancel_rounds_in_progress", "_selected_action": [shoe.pk], "apply": "1"}
    stale = {**selected, "reason": "misdeal", f"round-{shoe.pk}": "1", f"deal-{shoe.pk}": deal}
    client.post("/admin/tables/shoe/", stale, follow=True)
    assert RoundInProgress.objects.filter(shoe=shoe).exists() and RoundCancel.objects.count() == 1


def test_the_shoes_list_action_asks_a_reason_then_cancels(client: Client, baccarat_1, desk_reviewer) -> None:
    shoe = dealing(baccarat_1[0])
    client.force_login(desk_reviewer)
    listed = client.get("/admin/tables/shoe/").content.decode()
    assert "cancel_rounds_in_progress" in [o.attrs["value"] for o in find_all(listed, "option")]
    assert "Round 1 · dealing" in listed

    selected = {"action": "cancel_rounds_in_progress", "_selected_action": [shoe.pk]}
    asked = client.post("/admin/tables/shoe/", selected)
    assert asked.status_code == 200
    assert find_all(asked.content.decode(), "textarea", name_="reason")
    blank = client.post("/admin/tables/shoe/", {**selected, "apply": "1", "reason": "", f"round-{shoe.pk}": "1"})
    assert "This field is required" in blank.content.decode()
    assert RoundInProgress.objects.filter(shoe=shoe).exists() and not RoundCancel.objects.exists()

    done = client.post(
        "/admin/tables/shoe/", {**selected, "apply": "1", "reason": "misdeal", f"round-{shoe.pk}": "1"}, follow=True
    )
    assert any("is cancelled (cards 9♥ 3♣ K♠)" in text for text in messages_of(done))
    assert RoundCancel.objects.get().username == "desk-reviewer"
    assert not RoundInProgress.objects.exists()

    nothing = client.post("/admin/tables/shoe/", selected, follow=True)
    assert "None of the selected shoes is dealing a round: nothing to cancel." in messages_of(nothing)


def test_a_user_without_the_permission_cannot_cancel(client: Client, baccarat_1) -> None:
    shoe = dealing(baccarat_1[0])
    viewer = User.objects.create_user("viewer", password="pw-viewer-1", is_staff=True)
    viewer.user_permissions.add(*Permission.objects.filter(codename__in=["view_shoe", "view_roundcancel"]))
    client.force_login(viewer)
    page = client.get(f"/admin/tables/shoe/{shoe.pk}/change/").content.decode()
    assert find_all(page, "section", id="round-in-progress"), "a viewer sees the round being dealt"
    assert not find_all(page, "*", id="cancel-round")
    assert client.get(cancel_page(shoe)).status_code == 403
    assert client.post(cancel_page(shoe), {"reason": "misdeal", "round": "1"}).status_code == 403
    listed = client.get("/admin/tables/shoe/").content.decode()
    assert "cancel_rounds_in_progress" not in [o.attrs.get("value") for o in find_all(listed, "option")]
    posted = {"action": "cancel_rounds_in_progress", "_selected_action": [shoe.pk], "apply": "1", "reason": "x"}
    assert client.post("/admin/tables/shoe/", posted).status_code == 403
    assert RoundInProgress.objects.filter(shoe=shoe).exists() and not RoundCancel.objects.exists()


def test_a_cancelled_round_cannot_be_added_changed_or_deleted_in_admin(
    client: Client, baccarat_1, staff_reviewer
) -> None:
    table = baccarat_1[0]
    dealing(table)
    cancel = services.round_cancel(table=table, reason="misdeal", user=staff_reviewer)
    client.force_login(staff_reviewer)  # a superuser: every permission there is
    assert client.get("/admin/tables/roundcancel/add/").status_code == 403
    assert client.get(f"/admin/tables/roundcancel/{cancel.pk}/delete/").status_code == 403
    page = client.get(f"/admin/tables/roundcancel/{cancel.pk}/change/")
    assert page.status_code == 200 and "misdeal" in page.content.decode()
    assert not find_all(page.content.decode(), "*", name_="reason"), "nothing to edit"
    posted = client.post(f"/admin/tables/roundcancel/{cancel.pk}/change/", {"reason": "nothing happened"})
    assert posted.status_code == 403
    listed = client.get("/admin/tables/roundcancel/").content.decode()
    assert "delete_selected" not in [o.attrs.get("value") for o in find_all(listed, "option")]
    refused = client.post(
        "/admin/tables/roundcancel/", {"action": "delete_selected", "_selected_action": [cancel.pk], "post": "yes"}
    )
    assert refused.status_code in (200, 302, 403)
    cancel.refresh_from_db()
    assert cancel.reason == "misdeal" and RoundCancel.objects.count() == 1


def cancels(table, count: int) -> None:
    for _ in range(count):
        services.card_deal(table=table, card="9H")
        services.round_cancel(table=table, reason="card exposed")


def queries(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


def test_the_cancelled_rounds_list_shows_cards_and_who_and_costs_the_same_queries_with_2_or_12(
    client: Client, baccarat_1, desk_reviewer
) -> None:
    table = baccarat_1[0]
    dealing(table, ["9H", "3C"])
    services.round_cancel(table=table, reason="shoe jammed", user=desk_reviewer)
    cancels(table, 1)
    client.force_login(desk_reviewer)
    page = client.get("/admin/tables/roundcancel/").content.decode()
    assert "9♥" in page and "3♣" in page and "shoe jammed" in page
    assert "desk-reviewer" in page and "Dealer system" in page
    assert "Anna" in page
    few = queries(client, "/admin/tables/roundcancel/")
    cancels(table, 10)
    many = queries(client, "/admin/tables/roundcancel/")
    assert many == few, "a cancel more costs no query more"
    by_system = client.get("/admin/tables/roundcancel/", {"source__exact": "api"}).content.decode()
    assert "shoe jammed" not in by_system and "card exposed" in by_system
    by_table = client.get("/admin/tables/roundcancel/", {"shoe__table__id__exact": table.pk}).content.decode()
    assert "shoe jammed" in by_table
    [today] = [a.attrs["href"] for a in find_all(page, "a") if a.text.strip() == "Today"]
    assert "shoe jammed" in client.get("/admin/tables/roundcancel/" + html.unescape(today)).content.decode()


def test_the_rounds_in_progress_and_the_shoes_list_cost_the_same_queries_with_1_dealing_or_4(
    client: Client, db, desk_reviewer
) -> None:
    client.force_login(desk_reviewer)
    tables = [services.table_create(slug=f"t{n}", name=f"T{n}")[0] for n in range(4)]
    dealing(tables[0])
    few = {path: queries(client, path) for path in ("/admin/tables/roundinprogress/", "/admin/tables/shoe/")}
    for table in tables[1:]:
        dealing(table)
    many = {path: queries(client, path) for path in ("/admin/tables/roundinprogress/", "/admin/tables/shoe/")}
    assert many == few
    listed = client.get("/admin/tables/roundinprogress/").content.decode()
    assert all(f"T{n}" in listed for n in range(4)) and "K♠" in listed
    [progress] = RoundInProgress.objects.filter(shoe__table=tables[0])
    shown = client.get(f"/admin/tables/roundinprogress/{progress.pk}/change/")
    assert shown.status_code == 302 and shown["Location"] == f"/admin/tables/shoe/{progress.pk}/change/"


def test_voiding_in_admin_while_a_round_is_dealt_says_why_and_voids_nothing(
    client: Client, baccarat_1, staff_reviewer
) -> None:
    table = baccarat_1[0]
    services.shoe_start(table=table)
    round_ = services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"]).round
    for code in DEALT:
        services.card_deal(table=table, card=code)
    client.force_login(staff_reviewer)
    done = client.post(
        "/admin/tables/round/",
        {"action": "void_rounds", "_selected_action": [round_.pk], "apply": "1", "reason": "card misread"},
        follow=True,
    )
    warnings = [m.text for m in find_all(done.content.decode(), "li", cls="warning")]
    assert any("round 2 of shoe 1 is being dealt" in text.lower() for text in warnings), warnings
    round_.refresh_from_db()
    assert not round_.voided
    page = client.post(f"/admin/tables/round/{round_.pk}/void/", {"reason": "card misread"}, follow=True)
    assert page.status_code == 200
    round_.refresh_from_db()
    assert not round_.voided
