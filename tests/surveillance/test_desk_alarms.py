"""Alarms on the reviewer's desk (issue 35): raised once, each with its evidence in words
and figures; acknowledged and resolved with a note (who, when, why; append-only, like
voids); pushed live to the desk's pages and never to a table page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables import services
from tables.access.desk_sockets import desk_ticket, desk_ticket_allows
from tables.game.alarms import AlarmKind, Finding, Severity
from tables.live import table_group
from tables.live.groups import desk_group, desk_shoe_group
from tables.models import Alarm, AlarmNote, AppendOnlyError
from tables.surveillance import alarms
from tests.html import find, find_all
from tests.pushes import Recorder, page_opens

pytestmark = pytest.mark.django_db

DECK_ORDER = Finding(
    kind=AlarmKind.DECK_ORDER,
    severity=Severity.CRITICAL,
    key="shoe:1:deck_order",
    round_number=7,
    evidence={
        "test": "new-deck order runs",
        "statistic": 14,
        "p_value": 1.2e-9,
        "rounds": [5, 6, 7],
        "cards": ["2S", "3S", "4S"],
    },
)


@pytest.fixture
def shoe(baccarat_1):
    table, _ = baccarat_1
    return services.shoe_start(table=table).shoe


def raise_deck_order(shoe) -> Alarm | None:
    return alarms.alarm_raise(DECK_ORDER, table=shoe.table, shoe=shoe, dealer="Anna")


def signed_in(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def test_a_finding_is_raised_once_however_often_it_is_found(shoe) -> None:
    first = raise_deck_order(shoe)
    assert first is not None and first.state == Alarm.State.OPEN
    assert raise_deck_order(shoe) is None
    assert Alarm.objects.count() == 1


def test_a_reviewer_acknowledges_then_resolves_an_alarm_saying_why(shoe, desk_reviewer) -> None:
    alarm = raise_deck_order(shoe)
    alarms.alarm_note(alarm=alarm, action=AlarmNote.Action.ACKNOWLEDGE, note="Shoe pulled", user=desk_reviewer)
    assert alarm.state == Alarm.State.ACKNOWLEDGED
    alarms.alarm_note(alarm=alarm, action=AlarmNote.Action.RESOLVE, note="Cards counted: 416", user=desk_reviewer)
    alarm.refresh_from_db()
    assert alarm.state == Alarm.State.RESOLVED
    assert [(n.action, n.username, n.note) for n in alarm.notes.order_by("at", "pk")] == [
        ("acknowledge", "desk-reviewer", "Shoe pulled"),
        ("resolve", "desk-reviewer", "Cards counted: 416"),
    ]


def test_a_note_needs_words_and_a_resolved_alarm_takes_no_more(shoe, desk_reviewer) -> None:
    alarm = raise_deck_order(shoe)
    with pytest.raises(alarms.AlarmNoteError, match="a note is required"):
        alarms.alarm_note(alarm=alarm, action=AlarmNote.Action.RESOLVE, note="  ", user=desk_reviewer)
    alarms.alarm_note(alarm=alarm, action=AlarmNote.Action.RESOLVE, note="False alarm: test shoe", user=desk_reviewer)
    with pytest.raises(alarms.AlarmNoteError, match="already resolved"):
        alarms.alarm_note(alarm=alarm, action=AlarmNote.Action.ACKNOWLEDGE, note="again", user=desk_reviewer)
    assert AlarmNote.objects.count() == 1


def test_notes_are_never_changed_or_deleted(shoe, desk_reviewer) -> None:
    note = alarms.alarm_note(alarm=raise_deck_order(shoe), action="acknowledge", note="Looking", user=desk_reviewer)
    note.note = "rewritten"
    with pytest.raises(AppendOnlyError):
        note.save()
    with pytest.raises(AppendOnlyError):
        note.delete()


def test_the_desk_shows_open_alarms_with_their_evidence_in_words_and_figures(shoe, desk_reviewer, client) -> None:
    alarm = raise_deck_order(shoe)
    html = signed_in(client, desk_reviewer).get("/admin/").content.decode()
    panel = find(html, "section", id="desk-alarms")
    item = find(html, "li", id=f"alarm-{alarm.pk}")
    assert "Cards in new-deck order" in item.text and "Critical" in item.text and "Dealer: Anna" in item.text
    assert "new-deck order runs" in item.text and "1.2e-09" in item.text and "2♠ 3♠ 4♠" in item.text
    replay = reverse("admin:tables_shoe_change", args=[shoe.pk]) + "?round=7#replay-section"
    assert any(a.attrs.get("href") == replay for a in find_all(item.html, "a"))
    assert panel.attrs["data-version"].startswith(f"{alarm.pk}:0:")


def test_a_resolved_alarm_leaves_the_desk_and_stays_on_its_shoe(shoe, desk_reviewer, client) -> None:
    alarm = raise_deck_order(shoe)
    alarms.alarm_note(alarm=alarm, action="resolve", note="Checked", user=desk_reviewer)
    signed_in(client, desk_reviewer)
    assert not find_all(client.get("/admin/").content.decode(), "li", id=f"alarm-{alarm.pk}")
    shoe_page = client.get(reverse("admin:tables_shoe_change", args=[shoe.pk])).content.decode()
    assert find(shoe_page, "section", id="shoe-alarms") and find(shoe_page, "li", id=f"alarm-{alarm.pk}")


def test_the_alarm_page_takes_a_note_and_refuses_one_without_words(shoe, desk_reviewer, client) -> None:
    alarm = raise_deck_order(shoe)
    signed_in(client, desk_reviewer)
    page = reverse("admin:tables_alarm_change", args=[alarm.pk])
    note = reverse("admin:tables_alarm_note", args=[alarm.pk])
    assert "new-deck order runs" in client.get(page).content.decode()
    refused = client.post(note, {"action": "acknowledge", "note": ""})
    assert refused.status_code == 400 and "This field is required." in refused.content.decode()
    assert not AlarmNote.objects.exists()
    assert client.post(note, {"action": "acknowledge", "note": "Pit boss called"}).status_code == 302
    alarm.refresh_from_db()
    assert alarm.state == Alarm.State.ACKNOWLEDGED
    assert "Pit boss called" in client.get(page).content.decode()


def test_only_reviewers_see_alarms_and_only_those_allowed_handle_them(shoe, outsider, client) -> None:
    alarm = raise_deck_order(shoe)
    staff = User.objects.create_user("clerk", password="pw-clerk-1", is_staff=True)  # staff, no alarm rights
    signed_in(client, staff)
    assert client.get(reverse("admin:tables_alarm_change", args=[alarm.pk])).status_code == 403
    assert (
        client.post(reverse("admin:tables_alarm_note", args=[alarm.pk]), {"action": "resolve", "note": "x"}).status_code
        == 403
    )
    assert not find_all(client.get("/admin/").content.decode(), "section", id="desk-alarms")
    signed_in(client, outsider)
    assert client.get(reverse("admin:tables_alarm_changelist")).status_code == 302  # to the login
    assert not AlarmNote.objects.exists()


def test_the_alarm_list_lists_them_newest_first(shoe, desk_reviewer, client) -> None:
    raise_deck_order(shoe)
    alarms.alarm_raise(
        Finding(AlarmKind.STREAK, Severity.WARNING, "shoe:1:streak:14", 30, {"test": "longest run"}),
        table=shoe.table,
        shoe=shoe,
    )
    html = signed_in(client, desk_reviewer).get(reverse("admin:tables_alarm_changelist")).content.decode()
    assert html.index("Unlikely streak") < html.index("Cards in new-deck order")


@pytest.mark.django_db(transaction=True)  # pushed after commit
def test_a_raised_or_noted_alarm_is_pushed_to_the_desk_and_its_shoe_and_never_to_a_table_page(
    shoe, owner, pushes: Recorder
) -> None:
    page_opens(desk_group(), desk_shoe_group(shoe.pk), table_group(shoe.table.slug))
    alarm = raise_deck_order(shoe)
    (desk,) = pushes.taken(desk_group())
    (on_shoe,) = pushes.taken(desk_shoe_group(shoe.pk))
    assert find(desk, "li", id=f"alarm-{alarm.pk}") and find(on_shoe, "section", id="shoe-alarms")
    alarms.alarm_note(alarm=alarm, action="resolve", note="Checked", user=owner)
    (desk,) = pushes.taken(desk_group())
    assert not find_all(desk, "li", id=f"alarm-{alarm.pk}") and find(desk, "p", id="no-alarms")
    assert not pushes.to(table_group(shoe.table.slug))


def test_a_table_page_never_shows_an_alarm(shoe, client) -> None:
    raise_deck_order(shoe)
    html = client.get(reverse("tables:detail", args=[shoe.table.slug])).content.decode()
    assert "Cards in new-deck order" not in html and "desk-alarms" not in html


def test_a_desk_socket_ticket_lets_in_a_reviewer_only_while_they_may_see_alarms(desk_reviewer, outsider) -> None:
    assert desk_ticket_allows(desk_ticket(desk_reviewer.pk))
    assert not desk_ticket_allows(desk_ticket(outsider.pk))
    assert not desk_ticket_allows(desk_ticket(desk_reviewer.pk) + "x")
    desk_reviewer.is_active = False
    desk_reviewer.save()
    assert not desk_ticket_allows(desk_ticket(desk_reviewer.pk))


def test_evidence_without_rounds_or_cards_shows_no_empty_labels(shoe, desk_reviewer, client) -> None:
    finding = Finding(
        AlarmKind.CARDS_UNACCOUNTED,
        Severity.CRITICAL,
        "shoe:1:cards_unaccounted",
        40,
        {"test": "card_accounting", "statistic": 2, "p_value": 0.0, "rounds": [], "cards": []},
    )
    alarm = alarms.alarm_raise(finding, table=shoe.table, shoe=shoe)
    item = find(signed_in(client, desk_reviewer).get("/admin/").content.decode(), "li", id=f"alarm-{alarm.pk}")
    labels = [dt.text for dt in find_all(item.html, "dt")]
    assert labels == ["Test", "Statistic", "p-value"]
    assert "Every committed card accounted for" in item.text and "0.0" not in item.text


def test_evidence_words_from_the_checks_read_as_the_pages_word_them(shoe, desk_reviewer, client) -> None:
    streak = Finding(
        AlarmKind.STREAK, Severity.WARNING, "shoe:1:streak:banker:3:19", 21, {"side": "B", "statistic": 19}
    )
    alarm = alarms.alarm_raise(streak, table=shoe.table, shoe=shoe)
    page = signed_in(client, desk_reviewer).get(reverse("admin:tables_alarm_change", args=[alarm.pk]))
    html = page.content.decode()
    facts = {dt.text: dd.text for dt, dd in zip(find_all(html, "dt"), find_all(html, "dd"), strict=True)}
    assert facts["Side"] == "Banker"


def test_a_warning_the_same_check_finds_again_as_critical_escalates_its_one_alarm_on_the_desk(
    shoe, desk_reviewer, client
) -> None:
    def deck_order(severity: Severity, number: int) -> Alarm | None:
        key = f"shoe:{shoe.pk}:deck_order:{severity.value}"
        finding = Finding(AlarmKind.DECK_ORDER, severity, key, number, {"statistic": number})
        return alarms.alarm_raise(finding, table=shoe.table, shoe=shoe)

    warning = deck_order(Severity.WARNING, 22)
    assert deck_order(Severity.CRITICAL, 23) is None  # gathered by the open alarm, not a new one
    html = signed_in(client, desk_reviewer).get("/admin/").content.decode()
    [item] = find_all(html, "li", cls="desk-alarm")
    assert item.attrs["id"] == f"alarm-{warning.pk}" and "desk-alarm-critical" in item.attrs["class"]
    assert "2 findings" in item.text
    page = client.get(reverse("admin:tables_alarm_change", args=[warning.pk])).content.decode()
    facts = {dt.text: dd.text for dt, dd in zip(find_all(page, "dt"), find_all(page, "dd"), strict=True)}
    assert facts["Findings"] == "2" and "Critical since" in facts and facts["Statistic"] == "23"
    assert [li.text.split(" · ")[1] for li in find_all(page, "li") if "round 2" in li.text] == ["Critical", "Warning"]
