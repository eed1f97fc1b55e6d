"""Template helpers for drawing cards and results."""

from __future__ import annotations

from fractions import Fraction

from django import template

from roads.patterns import PATTERN_NAMES

from ..game.bets import BetType
from ..game.cards import Card

register = template.Library()

WINNER_NAMES = {"B": "Banker", "P": "Player", "T": "Tie"}


@register.inclusion_tag("tables/_hand.html")
def hand(cards: tuple[Card, ...], label: str, score: int) -> dict[str, object]:
    return {"cards": cards, "label": label, "score": score}


@register.filter
def winner_name(code: str) -> str:
    return WINNER_NAMES.get(code, code)


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
def good_road_name(pattern: str) -> str:
    """The seed's name for a good-road pattern."""
    return PATTERN_NAMES.get(pattern, pattern)
