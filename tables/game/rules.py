"""The third-card (drawing) rules, exactly as the seeds' charts give them.

Both stand when either side has a natural (8 or 9 on two cards). Otherwise the
player draws on 0-5 and stands on 6-7. If the player stood, the banker draws on
0-5; if the player drew, the banker follows the chart indexed by the banker's
two-card score and the value of the player's third card.
"""

from __future__ import annotations

# Banker two-card score -> player third-card values on which the banker draws.
# Scores 0-2 always draw and 7 always stands (8-9 are naturals).
BANKER_DRAWS_ON: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}


def is_natural(two_card_score: int) -> bool:
    """Whether a two-card total is a natural: 8 or 9, and no more cards are drawn."""
    return two_card_score >= 8


def player_draws(player_score: int, banker_score: int) -> bool:
    """Whether the player takes a third card, given both two-card scores."""
    if is_natural(player_score) or is_natural(banker_score):
        return False
    return player_score <= 5


def banker_draws(player_score: int, banker_score: int, player_third: int | None) -> bool:
    """Whether the banker takes a third card.

    ``player_third`` is the value of the player's third card, or ``None`` when the
    player stood.
    """
    if is_natural(player_score) or is_natural(banker_score):
        return False
    if player_third is None:
        return banker_score <= 5
    return player_third in BANKER_DRAWS_ON[banker_score]
