"""What a table's public screens may show of the shoe that is left.

Pair and Lucky Six bets are countable: late in a shoe their return on the cards left can
favour the player, and a page that shows it is an advantage-play aid no casino puts on
its floor. So each table has an audience profile, set by its owner: by default the
public (player pages, lobby, good roads, alerts, the table's display, the lobby wall,
receipts, the public API and every push) sees full-shoe returns only, the seeds'
published tables. The desk always sees everything. Nothing here knows a web page: the
pages ask :func:`sight` what they may put in their HTML, their JSON and their pushes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .bets import BetType


class Audience(enum.StrEnum):
    """A table's public profile (stored per table; never renamed once shipped)."""

    FULL_SHOE = "full_shoe"  # full-shoe returns only: the safe default
    MAIN_BETS = "main_bets"  # Banker, Player and Tie remaining-shoe returns too
    EVERYTHING = "everything"  # a training or free-play room: every number the desk sees


MAIN_BETS = frozenset({BetType.BANKER, BetType.PLAYER, BetType.TIE})


@dataclass(frozen=True)
class Sight:
    """What the public may see of the shoe that is left: the bets whose remaining-shoe
    return is shown (their "shoe left" and "change" cells, their edge flag and their
    line on the shoe-odds chart), whether the count of cards left is shown, and whether
    the table's pages say they are a training room."""

    remaining: frozenset[BetType]
    cards_left: bool
    training: bool

    def shows(self, bet: BetType) -> bool:
        """Whether ``bet``'s return on the cards left may be shown."""
        return bet in self.remaining

    @property
    def any_remaining(self) -> bool:
        """Whether any bet's return on the cards left may be shown (the panel's columns)."""
        return bool(self.remaining)


SIGHTS = {
    Audience.FULL_SHOE: Sight(frozenset(), cards_left=False, training=False),
    Audience.MAIN_BETS: Sight(MAIN_BETS, cards_left=False, training=False),
    Audience.EVERYTHING: Sight(frozenset(BetType), cards_left=True, training=True),
}


def sight(audience: str) -> Sight:
    """What a table of ``audience`` shows the public; an unknown profile (a value from a
    newer release, read by an older one) shows the least."""
    try:
        return SIGHTS[Audience(audience)]
    except ValueError:
        return SIGHTS[Audience.FULL_SHOE]
