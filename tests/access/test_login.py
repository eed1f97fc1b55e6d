"""The admin login is throttled: a flood of wrong passwords neither guesses its way in
nor costs a password hash per try (each hash ran on the threads that record rounds)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib.auth.hashers import MD5PasswordHasher
from django.contrib.auth.models import User
from django.test import Client

from tables.access import login
from tables.access.throttles import (
    login_failures_by_address,
    login_failures_by_username,
    login_failures_by_username_address,
    login_hashes,
)
from tests.fake_time import FakeTime
from tests.html import find_all

WINDOW = 900  # LOGIN_FAILURES_WINDOW's default


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    """A clock the test moves, for the lockouts and the hashes a second."""
    fake = FakeTime()
    monkeypatch.setattr(login_failures_by_address, "clock", fake.time)
    monkeypatch.setattr(login_failures_by_username, "clock", fake.time)
    monkeypatch.setattr(login_failures_by_username_address, "clock", fake.time)
    monkeypatch.setattr(login_hashes, "clock", fake.time)
    return fake


@pytest.fixture
def many_hashes_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    """For tests of the lockouts, which sign in many times within one second of the
    test's clock: the limit on hashes a second left out."""
    monkeypatch.setattr(login_hashes, "limit", 1_000_000)


@pytest.fixture
def hashes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The passwords checked against a stored hash, in order."""
    checked: list[str] = []
    verify = MD5PasswordHasher.verify

    def counted(self: MD5PasswordHasher, password: str, encoded: str) -> bool:
        checked.append(password)
        return verify(self, password, encoded)

    monkeypatch.setattr(MD5PasswordHasher, "verify", counted)
    return checked


def sign_in(client: Client, username: str, password: str, address: str = "198.51.100.7"):
    return client.post("/admin/login/?next=/admin/", {"username": username, "password": password}, REMOTE_ADDR=address)


def errors(response) -> list[str]:
    return [note.text.strip() for note in find_all(response.content.decode(), "p", cls="errornote")]


def test_forty_wrong_passwords_lock_the_username_out_of_that_address_before_the_right_one(
    client: Client, owner: User, clock: FakeTime, hashes: list[str], many_hashes_a_second: None
) -> None:
    answers = [sign_in(client, "owner", f"guess-{n}") for n in range(40)]
    assert [a.status_code for a in answers] == [200] * 5 + [429] * 35
    assert len(hashes) == 5  # refusals hash nothing
    locked = answers[-1]
    assert errors(locked) == ["Too many failed sign-ins. Try again in 15 minutes."]
    assert 1 <= int(locked["Retry-After"]) <= WINDOW

    right = sign_in(client, "owner", "pw-owner-1")
    assert right.status_code == 429 and "_auth_user_id" not in client.session
    assert len(hashes) == 5

    clock.advance(WINDOW)
    assert sign_in(client, "owner", "pw-owner-1").status_code == 302
    assert client.session["_auth_user_id"] == str(owner.pk)


def test_an_address_trying_many_usernames_is_locked_out_after_ten(
    client: Client, owner: User, clock: FakeTime, many_hashes_a_second: None
) -> None:
    answers = [sign_in(client, f"user-{n}", "wrong") for n in range(12)]
    assert [a.status_code for a in answers] == [200] * 10 + [429] * 2
    assert sign_in(client, "owner", "pw-owner-1").status_code == 429
    assert sign_in(Client(), "owner", "pw-owner-1", address="192.0.2.1").status_code == 302


def test_a_flood_against_a_username_never_locks_its_owner_out_of_their_own_browser(
    owner: User, clock: FakeTime, many_hashes_a_second: None
) -> None:
    """Issue 49, item 4: 20 wrong passwords for "owner" from two addresses locked the
    real owner out from a fresh address. Now two addresses reach only their own limit of
    the username (5 each); past the username's own limit (20, from ten addresses), a
    browser that signed in as the owner before still gets in from anywhere, and an
    unknown browser for that username waits out the flood."""
    for flooder in ("203.0.113.201", "203.0.113.202"):
        for n in range(10):
            sign_in(Client(), "owner", f"guess-{n}", address=flooder)
    assert sign_in(Client(), "owner", "pw-owner-1", address="192.0.2.1").status_code == 302
    clock.advance(WINDOW)
    browser = Client()
    assert sign_in(browser, "owner", "pw-owner-1", address="192.0.2.50").status_code == 302
    del browser.cookies[settings.SESSION_COOKIE_NAME]  # signed out (the test client's logout drops every cookie)
    for n in range(20):  # ten addresses, two tries each: every try hashed and counted
        assert sign_in(Client(), "owner", f"guess-{n}", address=f"203.0.113.{n % 10}").status_code == 200
    assert sign_in(Client(), "owner", "pw-owner-1", address="192.0.2.1").status_code == 429  # unknown browser
    assert sign_in(browser, "owner", "pw-owner-1", address="192.0.2.77").status_code == 302  # hers
    assert browser.session["_auth_user_id"] == str(owner.pk)
    # The cookie is the owner's alone: it spares no other username.
    User.objects.create_user("manager", password="pw-manager-1", is_staff=True)
    for n in range(20):
        sign_in(Client(), "manager", "wrong", address=f"203.0.113.{10 + n}")
    assert sign_in(browser, "manager", "pw-manager-1", address="192.0.2.78").status_code == 429


def test_a_username_is_locked_out_whatever_the_address_for_a_browser_never_signed_in(
    client: Client, owner: User, clock: FakeTime, many_hashes_a_second: None
) -> None:
    for n in range(20):
        assert sign_in(client, "OWNER", "wrong", address=f"203.0.113.{n}").status_code == 200
    assert sign_in(client, "owner", "pw-owner-1", address="192.0.2.1").status_code == 429
    other = User.objects.create_user("manager", password="pw-manager-1", is_staff=True)
    assert sign_in(client, "manager", "pw-manager-1", address="192.0.2.2").status_code == 302
    assert client.session["_auth_user_id"] == str(other.pk)


def test_a_right_password_is_never_counted(
    client: Client, owner: User, clock: FakeTime, many_hashes_a_second: None
) -> None:
    for _ in range(15):
        assert sign_in(Client(), "owner", "pw-owner-1").status_code == 302
    assert sign_in(client, "owner", "wrong").status_code == 200


def test_all_processes_together_hash_a_few_passwords_a_second(
    client: Client, owner: User, clock: FakeTime, hashes: list[str], settings
) -> None:
    """A flood from many addresses and usernames passes both lockouts: the hashes a
    second are what bounds it."""
    for n in range(settings.LOGIN_HASHES_PER_SECOND):
        assert sign_in(client, "owner", f"guess-{n}", address=f"198.51.100.{n}").status_code == 200
    busy = sign_in(client, "owner", "pw-owner-1", address="192.0.2.9")
    assert busy.status_code == 429 and busy["Retry-After"] == "1"
    assert len(hashes) == settings.LOGIN_HASHES_PER_SECOND
    clock.advance(1)
    assert sign_in(client, "owner", "pw-owner-1", address="192.0.2.9").status_code == 302


@pytest.fixture
def hashing_taken() -> Iterator[None]:
    """Every slot of this process's password hashing busy, as in a flood."""
    taken = 0
    while login._hashing.acquire(blocking=False):
        taken += 1
    yield
    for _ in range(taken):
        login._hashing.release()


def test_a_sign_in_waits_for_a_free_hashing_slot_then_is_told_to_retry(
    client: Client, owner: User, clock: FakeTime, hashes: list[str], settings, hashing_taken: None
) -> None:
    settings.LOGIN_HASHING_WAIT = 0
    busy = sign_in(client, "owner", "pw-owner-1")
    assert busy.status_code == 429 and busy["Retry-After"] == "1"
    assert errors(busy) == ["Too many sign-ins at once. Try again in a moment."]
    assert hashes == [] and "_auth_user_id" not in client.session
    assert login_failures_by_address.waiting("198.51.100.7") is None  # a busy server is not a failure


def test_the_login_page_is_reached_from_admin_and_signs_in(client: Client, owner: User) -> None:
    page = client.get("/admin/", follow=True)
    assert page.redirect_chain[-1][0].startswith("/admin/login/")
    assert find_all(page.content.decode(), "input", name_="password")
    assert sign_in(client, "owner", "pw-owner-1")["Location"] == "/admin/"


def test_during_a_flood_that_takes_every_hash_a_known_browser_still_signs_its_owner_in(
    owner: User, clock: FakeTime, hashes: list[str], settings
) -> None:
    """Issue 49, item 3: a flood from many addresses and usernames takes every hash a
    second and every hashing slot; the owner's own browser has a slot of its own."""
    browser = Client()
    assert sign_in(browser, "owner", "pw-owner-1", address="192.0.2.50").status_code == 302
    del browser.cookies[settings.SESSION_COOKIE_NAME]
    clock.advance(1)
    for n in range(settings.LOGIN_HASHES_PER_SECOND):  # this second's hashes, all the flood's
        assert sign_in(Client(), f"user-{n}", "wrong", address=f"198.51.100.{n}").status_code == 200
    taken = 0
    while login._hashing.acquire(blocking=False):  # and every slot of this process
        taken += 1
    try:
        settings.LOGIN_HASHING_WAIT = 0
        assert sign_in(Client(), "owner", "pw-owner-1", address="192.0.2.9").status_code == 429  # unknown
        assert sign_in(browser, "owner", "pw-owner-1", address="192.0.2.10").status_code == 302  # hers
        assert browser.session["_auth_user_id"] == str(owner.pk)
    finally:
        for _ in range(taken):
            login._hashing.release()
