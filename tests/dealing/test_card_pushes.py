"""Every screen shows the round as it is dealt (issue 34): each card pushes, at once and
small, the last-round panel to the table's pages and the card's line to the lobby; the
roads change only when the round is complete, and a page that (re)connects mid-round
gets the round as far as it has gone."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import selectors, services
from tables.live import lobby_group, table_group
from tables.live.consumers import lobby_missed, table_missed
from tables.page_version import PageVersion
from tests.html import find, find_all
from tests.pushes import Recorder, page_opens

pytestmark = pytest.mark.django_db(transaction=True)

MOST_BYTES = 1536  # a card's push, raw


def deal(table, *codes: str) -> None:
    for code in codes:
        services.card_deal(table=table, card=code)


def test_each_card_pushes_the_round_so_far_to_the_table_and_the_lobby_and_nothing_else(
    baccarat_1, pushes: Recorder
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    page_opens(table_group(table.slug), lobby_group())
    pushes.sent.clear()
    deal(table, "3H", "2S", "3D")
    to_table, to_lobby = pushes.taken(table_group(table.slug)), pushes.taken(lobby_group())
    assert len(to_table) == len(to_lobby) == 3 and not pushes.sent
    panel = find(to_table[-1], "section", id="last-round")
    assert "dealing" in panel.classes
    assert [c.attrs["title"] for c in find_all(to_table[-1], "span", cls="card") if "slot" not in c.classes] == [
        "3H",
        "3D",
        "2S",
    ]
    assert "Round 1 · dealing" in to_table[-1] and "Next card: Banker" in to_table[-1]
    assert not find_all(to_table[-1], "section", id="roads")  # the roads wait for the round
    line = find(to_lobby[-1], "p", id="dealing-baccarat-1")
    assert "3♥" in to_lobby[-1] and "2♠" in to_lobby[-1] and "hidden" not in line.attrs
    assert max(len(html.encode()) for html in to_table + to_lobby) <= MOST_BYTES


def test_what_the_rules_decide_is_said_as_the_cards_come(baccarat_1, pushes: Recorder) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    page_opens(table_group(table.slug))
    deal(table, "3H", "2S", "3D", "2C")  # player 6 stands, banker 4 draws
    assert "Player stands · Banker draws" in pushes.taken(table_group(table.slug))[-1]


def test_the_card_that_completes_the_round_pushes_the_round_and_then_the_roads(baccarat_1, pushes: Recorder) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    page_opens(table_group(table.slug))
    deal(table, "9H", "2C", "KS")
    pushes.taken(table_group(table.slug))
    deal(table, "4C")  # a natural 9: the round is recorded
    html = pushes.taken(table_group(table.slug))
    panels = [h for h in html if find_all(h, "section", id="last-round")]
    assert "Player wins" in panels[0] and "dealing" not in find(panels[0], "section", id="last-round").classes
    assert len(panels[0].encode()) <= MOST_BYTES
    assert any(find_all(h, "section", id="game-info") for h in html), "the round's own push: roads, history"


def test_a_cancel_pushes_the_last_round_back(baccarat_1, pushes: Recorder) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"])
    page_opens(table_group(table.slug), lobby_group())
    deal(table, "3H", "2S")
    pushes.sent.clear()
    services.round_cancel(table=table, reason="misdeal")
    [panel] = pushes.taken(table_group(table.slug))
    assert "Last round" in panel and "Player wins" in panel
    [line] = pushes.taken(lobby_group())
    assert "hidden" in find(line, "p", id="dealing-baccarat-1").attrs


def test_a_card_pushes_a_newer_version_each_time(baccarat_1, pushes: Recorder) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    page_opens(table_group(table.slug))
    deal(table, "3H", "2S")
    versions = [
        PageVersion.parse(find(h, "section", id="last-round").attrs["data-version"])
        for h in pushes.taken(table_group(table.slug))
    ]
    assert versions[0].cards is not None and versions[1].cards is not None
    assert versions[1].cards > versions[0].cards and versions[1].round == versions[0].round == 0


def test_a_page_that_reconnects_mid_round_gets_the_round_as_far_as_it_has_gone(baccarat_1) -> None:
    table, _ = baccarat_1
    shoe = services.shoe_start(table=table).shoe
    before = selectors.table_version(shoe)
    deal(table, "3H", "2S", "3D")
    html = table_missed(table.slug, before)
    assert [c.attrs["title"] for c in find_all(html, "span", cls="card") if "slot" not in c.classes] == [
        "3H", "3D", "2S"
    ]  # fmt: skip
    shoe.refresh_from_db()
    assert table_missed(table.slug, selectors.table_version(shoe)) == ""  # current: nothing to send
    lobby_before = PageVersion(shoe.number, 0, 0, cards=0)
    assert "3♥" in lobby_missed({table.slug: lobby_before})


def test_a_push_reads_the_current_shoe_and_the_round_it_deals_in_one_query(baccarat_1) -> None:
    table, _ = baccarat_1
    assert selectors.current_shoe_dealing(table=table) == (None, None)  # no shoe yet
    first = services.shoe_start(table=table).shoe
    deal(table, "9H", "2S")
    with CaptureQueriesContext(connection) as read:
        shoe, dealing = selectors.current_shoe_dealing(table=table)
    assert len(read.captured_queries) == 1
    assert shoe == first and dealing is not None and dealing.cards == "9H2S"
    services.round_cancel(table=table, reason="misdeal")
    assert selectors.current_shoe_dealing(table=table) == (first, None)  # none dealt now
    services.shoe_end(table=table)
    assert selectors.current_shoe_dealing(table=table) == (first, None)  # the latest shoe, ended
    second = services.shoe_start(table=table).shoe
    assert selectors.current_shoe_dealing(table=table) == (second, None)
