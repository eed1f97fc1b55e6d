"""Template helpers for drawing cards and results."""

from __future__ import annotations

from fractions import Fraction

from django import template

from roads.patterns import PATTERN_NAMES

from ..game.bets import BetType
from ..game.cards import Card
from ..game.odds import Event
from ..game.outcome import Winner

register = template.Library()


@register.inclusion_tag("tables/_hand.html")
def hand(cards: tuple[Card, ...], label: str, score: int) -> dict[str, object]:
    return {"cards": cards, "label": label, "score": score}


@register.filter
def winner_name(winner: Winner | str) -> str:
    """``"Banker"`` for ``Winner.BANKER`` or its stored code ``"B"``."""
    return Winner(winner).label


@register.filter
def winner_verdict(winner: Winner | str) -> str:
    """``"Banker wins"``, ``"Player wins"`` or ``"Tie"`` for a winner or its stored code."""
    return Winner(winner).verdict


SIDE_BETS = {bet.value for bet in BetType} - {"player", "banker", "tie"}


def _odds(pays: float) -> str:
    ratio = Fraction(pays).limit_denominator(100)
    return f"{ratio.numerator}:{ratio.denominator}"


@register.filter
def winning_bets(bets: dict[str, dict[str, object]], side_only: bool = False) -> list[str]:
    """``["Player 1:1", "Player Bonus 4:1"]`` for the bets a round paid."""
    return [
        f"{BetType(name).label} {_odds(float(result['pays']))}"  # type: ignore[arg-type]
        for name, result in bets.items()
        if result["result"] == "win" and (not side_only or name in SIDE_BETS)
    ]


@register.filter
def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


@register.filter
def signed_percent(value: float | None, places: int = 3) -> str:
    """An expected return as a signed percentage: ``-1.058%``; a dash when unknown."""
    return "–" if value is None else f"{100 * value:+.{places}f}%".replace("-", "−")


@register.filter
def grouped(count: int) -> str:
    return f"{count:,d}"


@register.filter
def six_places(value: Fraction | float) -> str:
    return f"{float(value):.6f}"


@register.filter
def probability(event: Event, total: int) -> str:
    return f"{event.count / total:.6f}"


@register.filter
def event_return(event: Event, total: int) -> str:
    return f"{float(event.pays) * event.count / total:.6f}"


@register.filter
def rtp(value: Fraction) -> str:
    return f"{100 * float(value):.2f}%"


@register.filter
def payout(pays: Fraction) -> str:
    """What an event pays, as on the seeds' tables: 0.95, 8, -1, 0."""
    return f"{float(pays):g}"


@register.filter
def good_road_name(pattern: str) -> str:
    """The seed's name for a good-road pattern."""
    return PATTERN_NAMES.get(pattern, pattern)
