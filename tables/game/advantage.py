"""Advantage windows: the stretches of a shoe in which a bet returns more than its stake.

Late in a shoe the cards left can favour the player on a countable bet (the pairs, Lucky
Six): the pit wants to know the moment that happens, privately, and how long it lasted.
After each round the odds of the shoe left are stored (every bet's expected return); a
bet's window opens after the first round its return rises above its threshold (0 by
default: the player's edge) and closes after the first round it falls back to or under
it, or when no round can be dealt any more. Nothing here knows a database: the shell
reads each round's stored returns and keeps what :func:`advantage_windows` finds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from .alarms import AlarmKind, Finding, Severity
from .bets import BetType

DEFAULT_THRESHOLD = 0.0  # a return above this (per unit staked) is the player's edge


class ThresholdError(ValueError):
    """A threshold setting that names no bet, or no number."""


@dataclass(frozen=True)
class AfterRound:
    """What the odds stored after a round say: its number, every bet's return on the
    shoe left (none when too few cards are left to deal a round), and the cards left."""

    number: int
    returns: Mapping[str, float]
    cards: int


@dataclass(frozen=True)
class Window:
    """One bet's advantage window in a shoe: opened after round ``opened_after`` (its
    return and the cards left then), its best return and after which round, and the
    round after which it closed (None while it is open)."""

    bet: BetType
    opened_after: int
    opening_return: float
    cards_left: int
    best_return: float
    best_after: int
    closed_after: int | None = None

    @property
    def rounds_open(self) -> int | None:
        """The rounds dealt while it was open (None while it is)."""
        return None if self.closed_after is None else self.closed_after - self.opened_after

    def finding(self, shoe_id: int) -> Finding:
        """The alarm it raises: one per window, on its shoe and bet."""
        return Finding(
            kind=AlarmKind.ADVANTAGE_WINDOW,
            severity=Severity.WARNING,
            key=f"{shoe_id}:{self.bet.value}:{self.opened_after}",
            round_number=self.opened_after,
            subject=self.bet.value,
            evidence={
                "test": "advantage_window",
                "bet": self.bet.value,
                "return": self.opening_return,
                "cards_left": self.cards_left,
                "rounds": [self.opened_after],
            },
        )


def advantage_windows(
    after: Iterable[AfterRound], thresholds: Mapping[BetType, float], *, ended: bool = False
) -> list[Window]:
    """Every window of a shoe from the odds stored after its rounds, in round order (the
    rounds whose odds are stored so far: the caller stops at the first without). A round
    with no returns (too few cards left for another) closes every window; so does the
    shoe's end (``ended``), after its last round."""
    windows: list[Window] = []
    open_now: dict[BetType, Window] = {}
    last = 0
    for step in after:
        last = step.number
        for bet in BetType:
            share = step.returns.get(bet.value)
            window = open_now.get(bet)
            if share is not None and share > thresholds.get(bet, DEFAULT_THRESHOLD):
                if window is None:
                    open_now[bet] = Window(bet, step.number, share, step.cards, share, step.number)
                elif share > window.best_return:
                    open_now[bet] = replace(window, best_return=share, best_after=step.number)
            elif window is not None:
                windows.append(replace(window, closed_after=step.number))
                del open_now[bet]
    windows += [replace(w, closed_after=last) if ended else w for w in open_now.values()]
    return sorted(windows, key=lambda w: (w.opened_after, list(BetType).index(w.bet)))


def thresholds_parse(text: str) -> dict[BetType, float]:
    """Every bet's threshold from a setting such as ``"0.01"`` (every bet) or
    ``"0,lucky_six=0.02,perfect_pair=0.05"`` (a default, then bets of their own): a
    return per unit staked (0.02 is 2 %)."""
    default, own = DEFAULT_THRESHOLD, {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = (s.strip() for s in part.rpartition("="))
        try:
            number = float(value)
        except ValueError:
            raise ThresholdError(f"{part!r}: a return per unit staked, such as 0.02") from None
        if not name:
            default = number
            continue
        try:
            own[BetType(name)] = number
        except ValueError:
            raise ThresholdError(f"{name!r} is not a bet ({', '.join(b.value for b in BetType)})") from None
    return {bet: own.get(bet, default) for bet in BetType}
