"""Hard shoes for the screens as the API takes their rounds (tables/game/patterns.py
deals them)."""

from __future__ import annotations

from tables.game.patterns import HARD_SHOES, deal_pattern

CHOPPY = HARD_SHOES["choppy"]
STREAK = HARD_SHOES["streak"]
TIE_HEAVY = HARD_SHOES["tie-heavy"]


def rounds_of(pattern: str, seed: int) -> list[dict[str, list[str]]]:
    """A round's body for each letter of ``pattern`` (``seed``: a shoe of its own; two
    shoes of one seed deal the same cards, a reused shoe)."""
    return [
        {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        for outcome in deal_pattern(pattern, seed)
    ]
