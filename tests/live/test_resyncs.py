"""What a page may send on its socket: resync requests only, answered at most once per interval."""

from __future__ import annotations

import json

import pytest

from tables.live.resyncs import FORGET_AFTER, MAX_BYTES, Budget, Malformed, Pacer, resync_request
from tables.page_version import PageVersion
from tests.fake_time import FakeTime


def test_a_resync_request_names_the_version_of_each_table_the_page_shows() -> None:
    text = json.dumps({"have": {"baccarat-1": "1:12:0:12", "baccarat-2": "0:0:0"}})
    lobby_card = PageVersion(1, 12, 0, cards=12)  # four numbers: a lobby card's (no odds)
    assert resync_request(text) == {"baccarat-1": lobby_card, "baccarat-2": PageVersion(0, 0, 0)}
    assert resync_request('{"have": {}}') == {}  # a page that shows nothing yet


@pytest.mark.parametrize(
    ("text", "data"),
    [
        (None, b'{"have": {}}'),  # binary
        ("", None),
        ("[]", None),
        ('{"have": {}, "x": 1}', None),
        ('{"have": null}', None),
        ('{"have": {"baccarat-1": 3}}', None),
        ('{"have": {"baccarat-1": "3"}}', None),
        ('{"have": {"baccarat 1": "1:1:0:1"}}', None),
        ('{"have": {"baccarat-1": "1:1:0:1:5:2"}}', None),
        (json.dumps({"have": {}, "pad": "x" * MAX_BYTES}), None),
    ],
)
def test_anything_else_is_malformed(text, data) -> None:
    with pytest.raises(Malformed):
        resync_request(text, data)


def test_a_page_gets_one_resync_at_once_then_one_per_interval() -> None:
    clock = FakeTime()
    pacer = Pacer(1.0, clock)
    assert pacer.book() == 0
    assert pacer.book() == 1.0  # the next waits out the interval
    clock.advance(5)
    assert pacer.book() == 0  # a quiet page is answered at once again
    clock.advance(0.25)
    assert pacer.book() == 0.75


# --- whole answers per client address


def test_an_address_gets_its_burst_of_whole_answers_then_is_told_when_to_ask_again() -> None:
    clock = FakeTime()
    budget = Budget(burst=3, rate=2.0, clock=clock, spread=lambda: 0.0)
    assert [budget.take("203.0.113.9") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert budget.take("203.0.113.9") == pytest.approx(0.5)  # one more every half second
    assert budget.take("198.51.100.7") == 0.0, "another address has a budget of its own"
    clock.advance(0.5)
    assert budget.take("203.0.113.9") == 0.0
    assert budget.take("203.0.113.9") == pytest.approx(0.5)


def test_the_asks_told_to_wait_are_spread_over_the_next_burst() -> None:
    budget = Budget(burst=4, rate=1.0, clock=FakeTime(), spread=lambda: 0.5)
    for _ in range(4):
        budget.take("203.0.113.9")
    assert budget.take("203.0.113.9") == pytest.approx(1.0 + 0.5 * 4)


def test_addresses_whose_budget_is_whole_again_are_forgotten() -> None:
    clock = FakeTime()
    budget = Budget(burst=1, rate=1.0, clock=clock)
    for n in range(FORGET_AFTER + 10):
        budget.take(f"10.0.{n // 250}.{n % 250}")
        clock.advance(0.01)
    assert budget.addresses() < FORGET_AFTER


def test_a_budget_answers_something() -> None:
    with pytest.raises(ValueError):
        Budget(burst=0, rate=1.0, clock=FakeTime())
