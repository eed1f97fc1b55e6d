"""The pit sees, privately, each window in which a bet returned more than its stake on
the cards left: one alarm a window (never one a round), when it closed and how many
rounds it stayed open, on the shoe's page and in the dealers and tables report."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables import services
from tables.game.advantage import AfterRound, advantage_windows
from tables.game.alarms import AlarmKind
from tables.game.bets import BetType
from tables.models import AdvantageWindow, Alarm, AlarmNote, Round, Shoe, Table
from tables.surveillance.advantage import advantage_windows_update
from tables.surveillance.alarms import alarm_note
from tests.shuffled import dealt_with_odds, shuffled_shoe

ZERO = dict.fromkeys(BetType, 0.0)


@pytest.fixture
def late_shoe(baccarat_1: tuple[Table, str]) -> Shoe:
    """A whole shoe dealt, each round's odds stored as the odds job stores them (and
    announced, as it announces them)."""
    table, _ = baccarat_1
    shoe = services.shoe_start(table=table).shoe
    dealt_with_odds(table, shuffled_shoe(11), 80)
    return shoe


def stored_windows(shoe: Shoe, *, ended: bool = False) -> list[tuple[str, int, int | None]]:
    """The windows the stored odds hold, found afresh: (bet, opened after, closed after)."""
    after = [
        AfterRound(number, stored["returns"], stored["cards"])
        for number, stored in Round.objects.filter(shoe=shoe).order_by("number").values_list("number", "odds")
    ]
    return [(w.bet.value, w.opened_after, w.closed_after) for w in advantage_windows(after, ZERO, ended=ended)]


def kept_windows(shoe: Shoe) -> list[tuple[str, int, int | None]]:
    return list(AdvantageWindow.objects.filter(shoe=shoe).values_list("bet", "opened_after", "closed_after"))


def test_each_window_is_kept_as_the_odds_are_stored_with_its_close_and_rounds_open(late_shoe: Shoe) -> None:
    windows = stored_windows(late_shoe)
    assert windows[:3] == [("perfect_pair", 64, 66), ("perfect_pair", 67, 69), ("perfect_pair", 70, 71)]
    assert sorted(kept_windows(late_shoe)) == sorted(windows)
    for row in AdvantageWindow.objects.filter(shoe=late_shoe, closed_after__isnull=False):
        assert row.rounds_open == row.closed_after - row.opened_after and row.closed_at is not None
        assert row.best_return >= row.opening_return > 0


def test_one_alarm_a_window_never_one_a_round_each_bet_an_episode_of_its_own(late_shoe: Shoe) -> None:
    alarms = Alarm.objects.filter(shoe=late_shoe, kind=AlarmKind.ADVANTAGE_WINDOW)
    windows = AdvantageWindow.objects.filter(shoe=late_shoe)
    bets = {bet for bet, _, _ in stored_windows(late_shoe)}
    assert sorted(alarms.values_list("subject", flat=True)) == sorted(bets)  # open episodes: one per bet
    assert sorted(bets) == ["lucky_six", "perfect_pair", "three_cards_lucky_six", "two_cards_lucky_six"]
    for alarm in alarms:
        assert alarm.count == windows.filter(bet=alarm.subject).count()  # a later window joins its bet's episode
        first = windows.filter(bet=alarm.subject).order_by("opened_after").first()
        assert first is not None and alarm.round_number is not None
        assert alarm.evidence["bet"] == alarm.subject and alarm.evidence["cards_left"] > 0
    assert advantage_windows_update(shoe_id=late_shoe.pk) == 0  # looking again raises nothing
    assert alarms.count() == len(bets)


def test_once_its_alarm_is_resolved_the_bets_next_window_raises_a_new_alarm(baccarat_1: tuple[Table, str]) -> None:
    table, _ = baccarat_1
    shoe, cards = services.shoe_start(table=table).shoe, shuffled_shoe(11)
    dealt_with_odds(table, cards, 66)
    [first] = Alarm.objects.filter(shoe=shoe, kind=AlarmKind.ADVANTAGE_WINDOW)
    assert (first.subject, first.round_number, first.evidence["closed_after"], first.evidence["rounds_open"]) == (
        "perfect_pair", 64, 66, 2
    )  # fmt: skip
    reviewer = User.objects.create_user("pit", password="x")
    alarm_note(alarm=first, action=AlarmNote.Action.RESOLVE, note="Checked the players at the table.", user=reviewer)
    dealt_with_odds(table, cards, 2)
    second = Alarm.objects.filter(shoe=shoe, kind=AlarmKind.ADVANTAGE_WINDOW).exclude(pk=first.pk).get()
    assert (second.subject, second.round_number, second.state) == ("perfect_pair", 67, Alarm.State.OPEN)


def test_the_shoes_end_closes_every_window_still_open(late_shoe: Shoe) -> None:
    open_before = AdvantageWindow.objects.filter(shoe=late_shoe, closed_after__isnull=True).count()
    assert open_before >= 1
    services.shoe_end(table=late_shoe.table)
    from_checks = advantage_windows_update(shoe_id=late_shoe.pk)  # as the shoe's end checks run it
    assert from_checks == 0 and not AdvantageWindow.objects.filter(shoe=late_shoe, closed_after__isnull=True).exists()
    assert sorted(kept_windows(late_shoe)) == sorted(stored_windows(late_shoe, ended=True))


def test_the_desk_shows_each_bets_windows_on_the_shoes_page_and_counts_them_per_dealer(
    late_shoe: Shoe, client: Client
) -> None:
    client.force_login(User.objects.create_superuser("owner", password="x"))
    page = client.get(f"/admin/tables/shoe/{late_shoe.pk}/change/").content.decode()
    assert "Advantage windows" in page
    for row in AdvantageWindow.objects.filter(shoe=late_shoe):
        assert f'data-window="{row.bet}:{row.opened_after}"' in page
    report = client.get("/review/dealers/").content.decode()
    assert "Advantage windows" in report
    csv = client.get("/review/dealers.csv").content.decode().splitlines()
    header, *lines = [line.split(",") for line in csv]
    column = header.index("advantage_windows")
    total = AdvantageWindow.objects.filter(shoe=late_shoe).count()
    assert sum(int(line[column]) for line in lines if line[0] == "dealer") == total
