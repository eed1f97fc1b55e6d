"""What a page shows of a table, as one value: its version.

On the wire (a page's ``data-version``, a push's, a resync's ``{"have": {slug:
version}}``) it is ``shoe:round:voided:cards`` for a lobby card (``shoe:round:voided``
with no shoe) and ``shoe:round:voided:odds:cards`` for a table page:

- ``shoe``: the shoe's number (0: no shoe yet);
- ``round``: its last recorded round's number;
- ``voided``: how many of its rounds are voided;
- ``odds``: the last round whose exact odds are stored (they arrive after their round);
- ``cards``: the cards revealed and the steps of rounds dealt card by card (each card,
  each cancel) times two, plus one once the shoe has ended (a burn, a reveal, a card of
  the round in progress or a shoe's end changes no round, yet a page that missed it is
  behind).

Each number only grows within a shoe, so two versions compare number by number.
``static/js/live.js`` reads the same format (its ``compare``): a change to it changes
this module and that script, and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WIRE = re.compile(r"[0-9]{1,19}(:[0-9]{1,19}){2,4}")  # what a client may send: 3 to 5 numbers


@dataclass(frozen=True)
class PageVersion:
    """A page's version; ``odds`` is None on a lobby card's (and ``cards`` too, with no shoe)."""

    shoe: int
    round: int
    voided: int
    odds: int | None = None
    cards: int | None = None

    @classmethod
    def parse(cls, text: str) -> PageVersion:
        """The version ``text`` writes, or ``ValueError`` for anything else."""
        if not isinstance(text, str) or not WIRE.fullmatch(text):
            raise ValueError(f"not a page version: {text!r}")
        numbers = [int(part) for part in text.split(":")]
        if len(numbers) == 4:  # a lobby card's: no odds
            shoe, round_, voided, cards = numbers
            return cls(shoe, round_, voided, cards=cards)
        return cls(*numbers)

    def __str__(self) -> str:
        numbers = [self.shoe, self.round, self.voided, self.odds, self.cards]
        return ":".join(str(n) for n in numbers if n is not None)

    @property
    def odds_pending(self) -> bool:
        """Whether the odds of the last round are still being computed."""
        return self.odds is not None and self.odds < self.round

    def delta_base(self, since: PageVersion | None, most: int) -> int | None:
        """The round a delta from ``since`` to this version starts after: when ``since``
        shows one to ``most`` rounds fewer of the same shoe with the same rounds voided
        (the shoe's first round too: a shoe's empty history takes rows like any other)."""
        if since is None or (since.shoe, since.voided) != (self.shoe, self.voided):
            return None
        return since.round if since.round < self.round <= since.round + most else None


NO_SHOE = PageVersion(0, 0, 0)
NO_SHOE_TABLE = PageVersion(0, 0, 0, 0, 0)
