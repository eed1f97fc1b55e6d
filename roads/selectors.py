"""Reads: a shoe's roads from its non-voided rounds."""

from __future__ import annotations

from dataclasses import dataclass

from tables.game.outcome import Winner
from tables.models import Round, Shoe

from .engine import Roads
from .entries import RoadRound


@dataclass
class ShoeRoads:
    """The roads of a shoe with the rounds they were built from (a mark's round, on hover)."""

    roads: Roads
    rounds: list[Round]


def shoe_roads(*, shoe: Shoe | None) -> ShoeRoads:
    """Voided rounds are kept for audit but left out of the roads."""
    return roads_of(list(shoe.rounds.order_by("number")) if shoe else [])


def roads_of(rounds: list[Round]) -> ShoeRoads:
    """The roads of a shoe's rounds, given oldest first; voided ones are left out."""
    played = [r for r in rounds if not r.voided]
    road_rounds = [RoadRound(Winner(r.winner), r.banker_pair, r.player_pair, index) for index, r in enumerate(played)]
    return ShoeRoads(Roads.of(road_rounds), played)
