"""The push ledger's state last pushed, when a table's round push (a server) and its odds
push (a worker) run at once: each records the state it brings only if the state it
started from is still the one recorded (compare-and-set, on the local-memory cache and
on Redis in the scaled pass), so the slower never puts back a state the pages left."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from unittest import mock

import pytest
from django.utils import translation

from tables import live, selectors, services
from tables.live import push, table_group
from tables.live.ledger import Pushed, PushLedger
from tables.page_version import PageVersion
from tables.pages import fragments
from tests.html import find_all
from tests.pushes import Recorder, page_opens
from tests.rounds import SEED

OTHER = {"player": ["9H", "KS"], "banker": ["2C", "4C"]}
THIRD = {"player": ["2D", "3D"], "banker": ["KD", "8D"]}


class TablePage:
    """A table page as static/js/live.js keeps it: the rounds it shows (shoe:round:voided),
    the odds its panel shows, and how often a push did not fit and it asked for the whole
    state."""

    def __init__(self, version: PageVersion) -> None:
        self.rounds, self.odds, self.resyncs = _rounds(version), version.odds or 0, 0

    def receive(self, html: str) -> None:
        """A push's first element names its state; the elements after it go with it."""
        pushed = None
        for info in find_all(html, "section", id="game-info"):
            pushed = PageVersion.parse(info.attrs["data-version"])
            since = info.attrs.get("data-since")
            if since is not None and _rounds(PageVersion.parse(since)) != self.rounds:
                self.resyncs += 1
                return
            self.rounds = _rounds(pushed)
        for when in find_all(html, "span", id="odds-when"):
            odds = PageVersion.parse(when.attrs.get("data-version") or str(pushed)).odds or 0
            if "data-odds" in when.attrs and int(when.attrs["data-odds"]) != self.odds and odds > self.odds:
                self.resyncs += 1
            self.odds = max(self.odds, odds)


def _rounds(version: PageVersion) -> tuple[int, int, int]:
    return version.shoe, version.round, version.voided


def test_a_push_records_its_state_only_over_the_state_it_started_from() -> None:
    server, worker = PushLedger(), PushLedger()  # two processes sharing the cache
    nothing = worker.last_pushed(1, "en")
    assert nothing == Pushed(None, None)
    assert server.pushed(1, "en", PageVersion(1, 1, 0, 0, 0), was=server.last_pushed(1, "en"))
    assert not worker.pushed(1, "en", PageVersion(1, 1, 0, 1, 0), was=nothing), "a round was pushed meanwhile"
    read = worker.last_pushed(1, "en")
    assert read.version == PageVersion(1, 1, 0, 0, 0)
    assert server.pushed(1, "en", PageVersion(1, 2, 0, 1, 0), was=server.last_pushed(1, "en"))
    assert not worker.pushed(1, "en", PageVersion(1, 1, 0, 1, 0), was=read)
    assert worker.last_pushed(1, "en").version == PageVersion(1, 2, 0, 1, 0), "the newer state stays"


@pytest.mark.django_db(transaction=True)
def test_an_odds_push_overtaken_by_the_next_rounds_push_leaves_the_next_round_recorded(
    baccarat_1: Any, pushes: Recorder
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)  # no page open yet: nothing pushed
    ledger, group, look = live.scheduler().ledger, table_group(table.slug, "en"), fragments.table_look(table)
    shoe = selectors.shoe_find(table=table, which="current")
    seen = replace(selectors.table_version(shoe), odds=0)  # the pages got round 1 before its odds
    services.round_record(table=table, **OTHER)  # its odds too, as the worker's are being pushed
    ledger.pushed(table.pk, "en", seen, look)
    page_opens(group)
    page = TablePage(seen)
    watched = dict.fromkeys(push.watched_groups(table.slug, ledger), False) | {group: True}
    real_render, overtaken = fragments.table_odds_push_html, []

    def odds_rendered_while_round_2_is_pushed(table: Any, *, since: PageVersion | None) -> Any:
        if not overtaken:  # the worker has read the ledger; the server pushes round 2 now
            overtaken.append(since)
            push.publish_table(table.pk, sender=pushes, ledger=ledger, watched=watched)
            for html in pushes.taken(group):
                page.receive(html)
        return real_render(table, since=since)

    with (
        translation.override("en"),
        mock.patch.object(fragments, "table_odds_push_html", odds_rendered_while_round_2_is_pushed),
    ):
        push._odds_push(table, pushes, ledger, group)  # round 1's odds, computed by a worker
    for html in pushes.taken(group):
        page.receive(html)
    assert overtaken == [seen]
    assert page.rounds == (1, 2, 0) and page.resyncs == 0
    round_2 = selectors.table_version(shoe)
    assert ledger.last_pushed(table.pk, "en", look).version == round_2, "round 2 stays recorded"
    services.round_record(table=table, **THIRD)  # pushed to the open page, then its odds
    delta, _ = pushes.taken(group)
    assert find_all(delta, "section", id="game-info", data_since=str(round_2))
    page.receive(delta)
    assert page.rounds == (1, 3, 0) and page.resyncs == 0, "round 3 comes as a delta from round 2, which the pages show"
