"""What the roads are made of: input rounds, road entries and drawn cells."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from tables.game.outcome import Winner

__all__ = ["BeadCell", "BigRoadCell", "BigRoadEntry", "Color", "DerivedCell", "RoadRound", "Winner"]

ROWS = 6  # every road is six rows high


class Color(enum.Enum):
    """Derived-road marks: red for repetition, blue for a chaotic shoe."""

    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class RoadRound:
    """One non-voided round, as the roads see it. ``index`` is its position in the
    shoe's round list, so a renderer can look up its cards and scores."""

    winner: Winner
    banker_pair: bool = False
    player_pair: bool = False
    index: int = 0

    @classmethod
    def parse(cls, item: object, index: int = 0) -> RoadRound:
        """``"B"``/``"P"``/``"T"`` or ``{"winner": "B", "banker_pair": true, ...}``."""
        if isinstance(item, str):
            return cls(_winner(item), index=index)
        if isinstance(item, dict):
            unknown = set(item) - {"winner", "banker_pair", "player_pair"}
            if unknown:
                raise ValueError(f"round {index + 1}: unknown keys {sorted(unknown)}")
            pairs = (item.get("banker_pair", False), item.get("player_pair", False))
            if not all(isinstance(p, bool) for p in pairs):
                raise ValueError(f"round {index + 1}: banker_pair and player_pair must be true or false")
            return cls(_winner(item.get("winner")), pairs[0], pairs[1], index)
        raise ValueError(f"round {index + 1}: expected 'B', 'P', 'T' or an object, got {item!r}")


def _winner(value: object) -> Winner:
    try:
        return Winner(value)
    except ValueError:
        raise ValueError(f"unknown winner {value!r}: expected 'B', 'P' or 'T'") from None


@dataclass(frozen=True, slots=True)
class BeadCell:
    """A round's bead on the Bead Plate: its row and column, six rows a column."""

    row: int
    col: int
    round: RoadRound


@dataclass(slots=True)
class BigRoadEntry:
    """One square of the Big Road: a B or P round, with the ties that followed it.

    The leading entry of a shoe that opens with ties has no winner until the first
    B/P round, which is drawn in that same square and keeps the tie count.
    """

    winner: Winner | None
    banker_pair: bool = False
    player_pair: bool = False
    index: int | None = None  # the B/P round that made the entry
    tie_indices: list[int] = field(default_factory=list)

    @property
    def ties(self) -> int:
        """How many ties were dealt on this entry (a tie marks the entry before it)."""
        return len(self.tie_indices)


@dataclass(frozen=True, slots=True)
class BigRoadCell:
    """An entry of the Big Road at its place in the grid, after the dragon tail."""

    row: int
    col: int
    entry: BigRoadEntry


@dataclass(frozen=True, slots=True)
class DerivedCell:
    """A derived road's mark at its place in the grid."""

    row: int
    col: int
    color: Color
    index: int | None = None  # the B/P round whose Big Road entry made the mark
