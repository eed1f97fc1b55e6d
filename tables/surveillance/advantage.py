"""Advantage windows, kept as each round's odds are stored and raised once each.

The odds job announces each batch of odds it stores (:data:`tables.background.odds.odds_stored`);
this room listens, reads the shoe's stored returns (a few dozen rows, never history),
finds its windows (:func:`tables.game.advantage.advantage_windows`) and keeps them: a
window new since the last look raises one alarm (live on the desk, and to the webhooks),
one that closed records when and after how many rounds. The shoe's end (its checks)
closes what is still open.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import live
from ..background.odds import odds_stored
from ..game.advantage import AfterRound, Window, advantage_windows
from ..game.alarms import AlarmKind
from ..game.bets import BetType
from ..models import AdvantageWindow, Alarm, AlarmFinding, Shoe
from .alarms import alarm_raise

log = logging.getLogger(__name__)


def advantage_windows_update(*, shoe_id: int) -> int:
    """Keep the shoe's windows as its stored odds show them now; returns how many opened
    since the last look."""
    shoe = Shoe.objects.select_related("table").filter(pk=shoe_id).first()
    if shoe is None:
        return 0
    after, dealers, total = [], {}, 0
    for number, odds, dealer in shoe.rounds.order_by("number").values_list("number", "odds", "dealer_name"):
        total += 1
        if odds is None:
            break  # a window is known up to the first round whose odds are still being worked out
        after.append(AfterRound(number, odds.get("returns") or {}, int(odds.get("cards", 0))))
        dealers[number] = dealer
    ended = shoe.state == Shoe.State.CLOSED and len(after) == total
    thresholds: dict[BetType, float] = settings.ADVANTAGE_THRESHOLDS
    known = {(w.bet, w.opened_after): w for w in AdvantageWindow.objects.filter(shoe=shoe)}
    opened = 0
    for window in advantage_windows(after, thresholds, ended=ended):
        row = known.get((window.bet.value, window.opened_after))
        if row is None:
            opened += _window_open(shoe, window, dealers.get(window.opened_after, ""))
        elif (row.best_return, row.closed_after) != (window.best_return, window.closed_after):
            _window_change(row, window)
    return opened


def _window_open(shoe: Shoe, window: Window, dealer: str) -> int:
    """Keep a new window and raise its alarm (a window kept by a job run at once is not
    raised twice: the window's row and the finding's key are unique)."""
    with transaction.atomic():
        row, created = AdvantageWindow.objects.get_or_create(
            shoe=shoe,
            bet=window.bet.value,
            opened_after=window.opened_after,
            defaults={
                "table": shoe.table,
                "dealer_name": dealer,
                "opening_return": window.opening_return,
                "cards_left": window.cards_left,
                "best_return": window.best_return,
                "best_after": window.best_after,
            },
        )
        if not created:
            return 0
        finding = window.finding(shoe.pk)
        alarm_raise(finding, table=shoe.table, shoe=shoe, dealer=dealer)
        alarm_id = (
            AlarmFinding.objects.filter(kind=AlarmKind.ADVANTAGE_WINDOW.value, key=finding.key)
            .values_list("alarm_id", flat=True)
            .first()
        )
        AdvantageWindow.objects.filter(pk=row.pk).update(alarm_id=alarm_id)
    if window.closed_after is not None:  # opened and closed between two looks
        row.alarm_id = alarm_id
        _window_change(row, window)
    return 1


def _window_change(row: AdvantageWindow, window: Window) -> None:
    """A known window's best return, or its close: kept on it, and on its alarm's evidence
    (the desk shows how long it stayed open)."""
    changes: dict[str, Any] = {"best_return": window.best_return, "best_after": window.best_after}
    if window.closed_after is not None and row.closed_after is None:
        changes |= {"closed_after": window.closed_after, "rounds_open": window.rounds_open, "closed_at": timezone.now()}
    with transaction.atomic():
        AdvantageWindow.objects.filter(pk=row.pk).update(**changes)
        alarm = Alarm.objects.select_for_update().filter(pk=row.alarm_id or 0).first()
        # Its evidence is this window's (a later window joining the episode brings its own).
        if (
            alarm is not None
            and isinstance(alarm.evidence, dict)
            and alarm.evidence.get("rounds") == [row.opened_after]
        ):
            evidence = alarm.evidence | {"best_return": window.best_return}
            if window.closed_after is not None:
                evidence |= {"closed_after": window.closed_after, "rounds_open": window.rounds_open}
            Alarm.objects.filter(pk=alarm.pk).update(evidence=evidence)
            transaction.on_commit(lambda: live.alarms_changed(row.shoe_id))


def _on_odds_stored(sender: object, *, shoe_id: int, **kwargs: object) -> None:
    """The odds job stored odds of the shoe: its windows as they stand now."""
    advantage_windows_update(shoe_id=shoe_id)


odds_stored.connect(_on_odds_stored, dispatch_uid="advantage-windows")
