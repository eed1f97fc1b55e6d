"""The 14 bets of seed 001, their paytables, and settling them on a round.

A paytable is data: each table stores its own (seed 004 pays 200:1 on a Perfect Pair
when both hands are perfect pairs; seed 001 pays Lucky Six 12:1 or 20:1). Payouts
are exact fractions, "to one": 19/20 for a commissioned banker win.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any

from .outcome import RoundOutcome, Winner


class BetType(enum.Enum):
    """The 14 bets of the seeds' paytables; the value is the name the API and the stored rounds use."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"
    ANY_PAIR = "any_pair"
    PERFECT_PAIR = "perfect_pair"
    PLAYER_NATURAL = "player_natural"
    BANKER_NATURAL = "banker_natural"
    PLAYER_BONUS = "player_bonus"
    BANKER_BONUS = "banker_bonus"
    LUCKY_SIX = "lucky_six"
    TWO_CARDS_LUCKY_SIX = "two_cards_lucky_six"
    THREE_CARDS_LUCKY_SIX = "three_cards_lucky_six"

    @property
    def label(self) -> str:
        """The bet's name in English, as the seeds write it: ``"Player Pair"``."""
        return _LABELS.get(self, self.value.replace("_", " ").title())


_LABELS = {BetType.TWO_CARDS_LUCKY_SIX: "2 Cards Lucky Six", BetType.THREE_CARDS_LUCKY_SIX: "3 Cards Lucky Six"}


class BetStatus(enum.Enum):
    """How a bet settled: won, lost, pushed (the stake returned), or unavailable (past its
    round limit in the shoe)."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    UNAVAILABLE = "unavailable"


@dataclass(frozen=True, slots=True)
class BetResult:
    """``pays`` is the net result per unit staked: the odds on a win, -1 on a loss,
    0 on a push, ``None`` when the bet was not open this round."""

    status: BetStatus
    pays: Fraction | None


UNAVAILABLE = BetResult(BetStatus.UNAVAILABLE, None)
LOSE = BetResult(BetStatus.LOSE, Fraction(-1))
PUSH = BetResult(BetStatus.PUSH, Fraction(0))


def _win(pays: Fraction) -> BetResult:
    return BetResult(BetStatus.WIN, pays)


def _frac(value: object) -> Fraction:
    """A payout from JSON: a number (0.95) or a ratio string ("7:2")."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Fraction):
        raise ValueError(f"not a payout: {value!r}")
    if isinstance(value, str) and ":" in value:
        left, right = value.split(":", 1)
        result = Fraction(left.strip()) / Fraction(right.strip())
    else:
        result = Fraction(str(value)) if not isinstance(value, Fraction) else value
    if result < 0:
        raise ValueError(f"a payout cannot be negative: {value!r}")
    return result


# Seed 001's "Max Round Limitation": the bet is unavailable after this many rounds.
SEED_ROUND_LIMITS: Mapping[BetType, int] = {
    BetType.PLAYER_PAIR: 60,
    BetType.BANKER_PAIR: 60,
    BetType.ANY_PAIR: 50,
    BetType.PERFECT_PAIR: 50,
    BetType.PLAYER_NATURAL: 50,
    BetType.BANKER_NATURAL: 50,
    BetType.LUCKY_SIX: 50,
    BetType.TWO_CARDS_LUCKY_SIX: 50,
    BetType.THREE_CARDS_LUCKY_SIX: 50,
}

SEED_BONUS_MARGINS: Mapping[int, Fraction] = {
    9: Fraction(30),
    8: Fraction(10),
    7: Fraction(6),
    6: Fraction(4),
    5: Fraction(2),
    4: Fraction(1),
}


@dataclass(frozen=True)
class Paytable:
    """Payouts "to one" for every bet; defaults are seed 001's standard table."""

    player: Fraction = Fraction(1)
    banker: Fraction = Fraction(19, 20)
    banker_six: Fraction | None = None  # a banker win with 6; None pays ``banker``
    tie: Fraction = Fraction(8)
    player_pair: Fraction = Fraction(11)
    banker_pair: Fraction = Fraction(11)
    any_pair: Fraction = Fraction(5)
    perfect_pair: Fraction = Fraction(25)
    perfect_pair_both: Fraction | None = None  # both hands perfect pairs; None pays once
    player_natural: Fraction = Fraction(7, 2)
    banker_natural: Fraction = Fraction(7, 2)
    bonus_natural_win: Fraction = Fraction(1)
    bonus_margins: Mapping[int, Fraction] = field(default_factory=lambda: dict(SEED_BONUS_MARGINS))
    lucky_six_two_cards: Fraction = Fraction(12)
    lucky_six_three_cards: Fraction = Fraction(20)
    two_cards_lucky_six: Fraction = Fraction(22)
    three_cards_lucky_six: Fraction = Fraction(50)
    round_limits: Mapping[BetType, int] = field(default_factory=lambda: dict(SEED_ROUND_LIMITS))

    @classmethod
    def standard(cls) -> Paytable:
        """The standard game's paytable: Banker pays 0.95 to 1 (a 5% commission)."""
        return cls()

    @classmethod
    def no_commission(cls) -> Paytable:
        """Banker wins pay 1:1, except a banker win with 6 pays 0.5:1."""
        return cls(banker=Fraction(1), banker_six=Fraction(1, 2))

    @classmethod
    def for_variant(cls, variant: str) -> Paytable:
        """The paytable of a table's variant, ``"standard"`` or ``"no_commission"``; ``ValueError`` otherwise."""
        if variant == "no_commission":
            return cls.no_commission()
        if variant == "standard":
            return cls.standard()
        raise ValueError(f"unknown variant {variant!r}: expected 'standard' or 'no_commission'")

    def updated(self, overrides: Mapping[str, Any]) -> Paytable:
        """This paytable with entries from JSON data replaced; unknown keys are errors."""
        names = {f.name for f in fields(self)}
        changes: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in names:
                raise ValueError(f"unknown paytable entry {key!r}")
            if key == "bonus_margins":
                changes[key] = {int(margin): _frac(pays) for margin, pays in dict(value).items()}
            elif key == "round_limits":
                changes[key] = {BetType(bet): int(limit) for bet, limit in dict(value).items() if limit is not None}
            elif value is None and key in ("banker_six", "perfect_pair_both"):
                changes[key] = None
            else:
                changes[key] = _frac(value)
        return replace(self, **changes)

    def to_data(self) -> dict[str, Any]:
        """JSON-ready form; ``Paytable().updated(p.to_data()) == p``."""
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "bonus_margins":
                data[f.name] = {str(m): float(p) for m, p in sorted(value.items(), reverse=True)}
            elif f.name == "round_limits":
                data[f.name] = {bet.value: limit for bet, limit in value.items()}
            else:
                data[f.name] = None if value is None else float(value)
        return data

    def round_limit(self, bet: BetType) -> int | None:
        """The last round of a shoe on which ``bet`` is offered (seed 001's "Max Round
        Limitation"), if it has one: after it the bet is unavailable."""
        return self.round_limits.get(bet)


def settle_bets(
    outcome: RoundOutcome, paytable: Paytable, *, round_number: int | None = None
) -> dict[BetType, BetResult]:
    """Every bet's result on this round; ``round_number`` applies the round limits."""
    results = {}
    for bet in BetType:
        limit = paytable.round_limit(bet)
        if round_number is not None and limit is not None and round_number > limit:
            results[bet] = UNAVAILABLE
        else:
            results[bet] = _SETTLE[bet](outcome, paytable)
    return results


def _when(condition: bool, pays: Fraction) -> BetResult:
    return _win(pays) if condition else LOSE


def _settle_player(o: RoundOutcome, t: Paytable) -> BetResult:
    if o.winner is Winner.TIE:
        return PUSH
    return _when(o.winner is Winner.PLAYER, t.player)


def _settle_banker(o: RoundOutcome, t: Paytable) -> BetResult:
    if o.winner is Winner.TIE:
        return PUSH
    pays = t.banker_six if o.banker_wins_with_six and t.banker_six is not None else t.banker
    return _when(o.winner is Winner.BANKER, pays)


def _settle_perfect_pair(o: RoundOutcome, t: Paytable) -> BetResult:
    if o.player_perfect_pair and o.banker_perfect_pair and t.perfect_pair_both is not None:
        return _win(t.perfect_pair_both)
    return _when(o.perfect_pair, t.perfect_pair)


def _settle_bonus(o: RoundOutcome, t: Paytable, side: Winner) -> BetResult:
    """Natural win 1:1, non-natural win by 4+ on the margin table, natural tie push."""
    side_natural = o.player_natural if side is Winner.PLAYER else o.banker_natural
    if o.winner is side:
        if side_natural:
            return _win(t.bonus_natural_win)
        pays = t.bonus_margins.get(o.margin)
        return LOSE if pays is None else _win(pays)
    if o.winner is Winner.TIE and o.player_natural and o.banker_natural:
        return PUSH
    return LOSE


def _settle_lucky_six(o: RoundOutcome, t: Paytable) -> BetResult:
    if not o.banker_wins_with_six:
        return LOSE
    return _win(t.lucky_six_two_cards if len(o.banker_cards) == 2 else t.lucky_six_three_cards)


_SETTLE: dict[BetType, Callable[[RoundOutcome, Paytable], BetResult]] = {
    BetType.PLAYER: _settle_player,
    BetType.BANKER: _settle_banker,
    BetType.TIE: lambda o, t: _when(o.winner is Winner.TIE, t.tie),
    BetType.PLAYER_PAIR: lambda o, t: _when(o.player_pair, t.player_pair),
    BetType.BANKER_PAIR: lambda o, t: _when(o.banker_pair, t.banker_pair),
    BetType.ANY_PAIR: lambda o, t: _when(o.any_pair, t.any_pair),
    BetType.PERFECT_PAIR: _settle_perfect_pair,
    BetType.PLAYER_NATURAL: lambda o, t: _when(o.player_natural, t.player_natural),
    BetType.BANKER_NATURAL: lambda o, t: _when(o.banker_natural, t.banker_natural),
    BetType.PLAYER_BONUS: lambda o, t: _settle_bonus(o, t, Winner.PLAYER),
    BetType.BANKER_BONUS: lambda o, t: _settle_bonus(o, t, Winner.BANKER),
    BetType.LUCKY_SIX: _settle_lucky_six,
    BetType.TWO_CARDS_LUCKY_SIX: lambda o, t: _when(
        o.banker_wins_with_six and len(o.banker_cards) == 2, t.two_cards_lucky_six
    ),
    BetType.THREE_CARDS_LUCKY_SIX: lambda o, t: _when(
        o.banker_wins_with_six and len(o.banker_cards) == 3, t.three_cards_lucky_six
    ),
}


def results_to_data(results: Mapping[BetType, BetResult]) -> dict[str, dict[str, Any]]:
    """JSON form used by the API: ``{"player": {"result": "win", "pays": 1.0}, ...}``."""
    return {
        bet.value: {"result": r.status.value, "pays": None if r.pays is None else float(r.pays)}
        for bet, r in results.items()
    }
