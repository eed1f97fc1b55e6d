"""What a page may send on its socket: resync requests only, answered at most once per interval."""

from __future__ import annotations

import json

import pytest

from tables.live.resyncs import MAX_BYTES, Malformed, Pacer, resync_request
from tables.page_version import PageVersion
from tests.fake_time import FakeTime


def test_a_resync_request_names_the_version_of_each_table_the_page_shows() -> None:
    text = json.dumps({"have": {"baccarat-1": "1:12:0:12", "baccarat-2": "0:0:0"}})
    assert resync_request(text) == {"baccarat-1": PageVersion(1, 12, 0, 12), "baccarat-2": PageVersion(0, 0, 0)}
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
