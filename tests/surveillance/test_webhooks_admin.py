"""Webhooks in admin: configured by the owner (an http or https URL, kinds as checkboxes,
a secret made by the server, rotated, a test delivery), and the delivery log read by a
reviewer, never by an outsider, never changed by anyone."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables.game.alarms import AlarmKind
from tables.models import Webhook, WebhookAttempt, WebhookDelivery
from tests.html import find_all
from tests.surveillance.findings import STREAK

pytestmark = pytest.mark.django_db

ADD = "/admin/tables/webhook/add/"
WEBHOOKS = "/admin/tables/webhook/"
DELIVERIES = "/admin/tables/webhookdelivery/"
ATTEMPTS = "/admin/tables/webhookattempt/"


def signed_in(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def messages_of(response) -> list[str]:
    [shown] = find_all(response.content.decode(), "ul", cls="messagelist")
    return [item.text.strip() for item in find_all(shown.html, "li")]


def text_of(response) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("url", ["ftp://casino.example/alarms", "not a url", "javascript:alert(1)", ""])
def test_a_webhook_url_that_is_not_http_or_https_is_a_form_error(client: Client, owner: User, url: str) -> None:
    response = signed_in(client, owner).post(ADD, {"name": "Casino", "url": url, "active": "on"})
    assert response.status_code == 200
    [errors] = find_all(response.content.decode(), "ul", cls="errorlist")
    assert "URL" in errors.text or "required" in errors.text
    assert not Webhook.objects.exists()


def test_the_owner_adds_a_webhook_with_its_kinds_and_the_server_makes_its_secret(client: Client, owner: User) -> None:
    fields = {"name": "Casino", "url": "https://casino.example/alarms", "active": "on"}
    page = signed_in(client, owner).get(ADD).content.decode()
    assert len(find_all(page, "input", type="checkbox", name_="kinds")) == len(AlarmKind)
    assert not find_all(page, "*", name_="secret")
    response = client.post(ADD, {**fields, "kinds": [AlarmKind.STREAK.value, AlarmKind.DECK_ORDER.value]})
    assert response.status_code == 302
    webhook = Webhook.objects.get()
    assert webhook.kinds == ["deck_order", "streak"] and len(webhook.secret) >= 40
    page = client.get(f"{WEBHOOKS}{webhook.pk}/change/").content.decode()
    assert webhook.secret in page and not find_all(page, "*", name_="secret")  # shown, never typed in
    assert "Cards in new-deck order, Unlikely streak" in text_of(client.get(WEBHOOKS))


@pytest.mark.parametrize(
    ("url", "address"),
    [("http://127.0.0.1:8000/admin/", "127.0.0.1"), ("https://10.1.2.3/alarms", "10.1.2.3"), ("http://[::1]/x", "::1")],
)
def test_a_webhook_on_a_private_address_takes_the_owner_s_leave(client: Client, owner: User, url, address) -> None:
    """Issue 49, item 10: webhook URLs had no address policy (a receiver at loopback or
    in a private range was taken as any other)."""
    fields = {"name": "Inside", "url": url, "active": "on"}
    refused = signed_in(client, owner).post(ADD, fields)
    assert refused.status_code == 200 and not Webhook.objects.exists()
    [errors] = find_all(refused.content.decode(), "ul", cls="errorlist")
    assert f"is a private address ({address})" in errors.text
    assert client.post(ADD, {**fields, "private_address_allowed": "on"}).status_code == 302
    assert Webhook.objects.get().private_address_allowed


def test_a_webhook_not_allowed_a_private_address_sends_nothing_there(clock, receiver, hook, raise_alarm) -> None:
    """Checked at each attempt too: a name may resolve to a private address later."""
    hook(private_address_allowed=False)
    alarm = raise_alarm(STREAK)
    [attempt] = WebhookAttempt.objects.filter(delivery__alarm=alarm)
    assert attempt.status_code is None and attempt.error.startswith("refused: 127.0.0.1 is a private address")
    assert receiver.received == []


def test_an_unknown_kind_is_a_form_error(client: Client, owner: User) -> None:
    fields = {"name": "Casino", "url": "https://casino.example/alarms", "kinds": ["card_counting"]}
    response = signed_in(client, owner).post(ADD, fields)
    assert response.status_code == 200 and find_all(response.content.decode(), "ul", cls="errorlist")
    assert not Webhook.objects.exists()


def test_rotating_a_secret_makes_a_new_one(client: Client, owner: User, hook) -> None:
    webhook = hook()
    before = webhook.secret
    response = signed_in(client, owner).post(
        WEBHOOKS, {"action": "rotate_secret", "_selected_action": [webhook.pk]}, follow=True
    )
    assert "Rotated the signing secret of 1 webhook" in text_of(response)
    webhook.refresh_from_db()
    assert webhook.secret != before and len(webhook.secret) >= 40


def test_a_test_delivery_is_signed_and_its_answer_shown(client: Client, owner: User, hook, receiver) -> None:
    webhook = hook(active=False)  # a ping goes whatever its state: checking a receiver before switching it on
    response = signed_in(client, owner).post(
        WEBHOOKS, {"action": "send_test", "_selected_action": [webhook.pk]}, follow=True
    )
    [ping] = receiver.received
    assert ping.verified and ping.json == {"event": "ping", "webhook": webhook.pk}
    assert ping.headers["X-Baccarat-Event"] == "ping"
    assert "Alarms answered 200 in" in messages_of(response)[0]
    receiver.answer = lambda tries, request: 503
    response = client.post(WEBHOOKS, {"action": "send_test", "_selected_action": [webhook.pk]}, follow=True)
    # Its status and length, never the answer's text: a receiver's answer may be an internal page.
    assert messages_of(response)[0] == "Alarms answered 503 (20 bytes)."
    assert not WebhookAttempt.objects.exists()  # pings are not deliveries


@pytest.fixture
def log(clock, receiver, hook, raise_alarm) -> WebhookDelivery:
    """One alarm delivered on its second attempt: the first refused with a 500."""
    receiver.answer = lambda tries, request: 500 if tries == 0 else 200
    hook()
    alarm = raise_alarm(STREAK)
    clock.advance(60)
    delivery = WebhookDelivery.objects.get(alarm=alarm)
    assert delivery.state == WebhookDelivery.State.DELIVERED
    return delivery


def test_a_reviewer_reads_the_delivery_log_with_each_attempt(client: Client, desk_reviewer: User, log) -> None:
    signed_in(client, desk_reviewer)
    response = client.get(DELIVERIES)
    assert response.status_code == 200 and "Unlikely streak" in text_of(response)
    page = client.get(f"{DELIVERIES}{log.pk}/change/")
    assert page.status_code == 200
    rows = [row.text for row in find_all(page.content.decode(), "tr", cls="has_original")]
    assert len(rows) == 2 and "500" in rows[0] and "200" in rows[1]
    assert not find_all(page.content.decode(), "*", name_="_save")  # nothing to save
    attempts = client.get(ATTEMPTS)
    assert attempts.status_code == 200 and len(find_all(attempts.content.decode(), "tr", cls=None)) >= 2
    for query in (
        f"delivery__webhook__id__exact={log.webhook_id}",
        "delivery__state__exact=delivered",
        "at__gte=2000-01-01+00%3A00%3A00%2B00%3A00",
    ):
        assert client.get(f"{ATTEMPTS}?{query}").status_code == 200, query
    attempt = WebhookAttempt.objects.filter(delivery=log).first()
    assert client.get(f"{ATTEMPTS}{attempt.pk}/change/").status_code == 200
    # Read only: no adding, changing or deleting an attempt or a delivery.
    assert client.get(f"{ATTEMPTS}add/").status_code == 403
    assert client.post(f"{ATTEMPTS}{attempt.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.post(f"{DELIVERIES}{log.pk}/delete/", {"post": "yes"}).status_code == 403
    assert WebhookAttempt.objects.filter(delivery=log).count() == 2
    # The webhooks and their secrets are not the reviewer's.
    assert client.get(WEBHOOKS).status_code == 403
    assert client.get(f"{WEBHOOKS}{log.webhook_id}/change/").status_code == 403


def test_an_outsider_is_sent_to_sign_in_and_staff_without_the_permission_refused(
    client: Client, outsider: User, log
) -> None:
    signed_in(client, outsider)
    for page in (WEBHOOKS, DELIVERIES, f"{DELIVERIES}{log.pk}/change/", ATTEMPTS):
        response = client.get(page)
        assert response.status_code == 302 and response["Location"].startswith("/admin/login/"), page
    staff = User.objects.create_user("staff-only", password="pw-staff-only-1", is_staff=True)
    signed_in(client, staff)
    for page in (WEBHOOKS, DELIVERIES, f"{DELIVERIES}{log.pk}/change/", ATTEMPTS):
        assert client.get(page).status_code == 403, page
