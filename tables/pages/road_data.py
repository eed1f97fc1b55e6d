"""Reads: a shoe's roads from its non-voided rounds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from roads.engine import Roads
from roads.entries import RoadRound

from ..game.outcome import Winner
from ..models import Shoe
from ..selectors import ShoeRow


@dataclass
class ShoeRoads:
    """The roads of a shoe with the rounds they were built from (a mark's round, on hover)."""

    roads: Roads
    rounds: list[ShoeRow]

    def index_of(self, number: int) -> int | None:
        """The index in the roads of the shoe's round ``number`` (``None``: voided, or not
        among the rounds they were built from)."""
        return next((index for index, r in enumerate(self.rounds) if r.number == number), None)


def shoe_roads(*, shoe: Shoe | None) -> ShoeRoads:
    """Voided rounds are kept for audit but left out of the roads."""
    return roads_of(list(shoe.rounds.order_by("number")) if shoe else [])


def roads_after(*, shoe: Shoe, number: int) -> ShoeRoads:
    """The shoe's roads as they stood after its round ``number``: a review, a replay or a
    receipt shows the shoe then, not as it went on."""
    return roads_of(list(shoe.rounds.filter(number__lte=number).order_by("number")))


def roads_of(rounds: Sequence[ShoeRow]) -> ShoeRoads:
    """The roads of a shoe's rounds, given oldest first; voided ones are left out."""
    played = [r for r in rounds if not r.voided]
    road_rounds = [RoadRound(Winner(r.winner), r.banker_pair, r.player_pair, index) for index, r in enumerate(played)]
    return ShoeRoads(Roads.of(road_rounds), played)
