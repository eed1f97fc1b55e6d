"""Reads: a shoe's roads from its non-voided rounds."""

from __future__ import annotations

from dataclasses import dataclass

from tables.game.outcome import Winner
from tables.models import Round, Shoe

from .engine import Roads
from .entries import RoadRound


@dataclass
class ShoeRoads:
    """The roads of a shoe with the rounds they were built from (for titles)."""

    roads: Roads
    rounds: list[Round]


def shoe_roads(*, shoe: Shoe | None) -> ShoeRoads:
    """Voided rounds are kept for audit but left out of the roads."""
    rounds = list(shoe.rounds.filter(voided=False).order_by("number")) if shoe else []
    road_rounds = [RoadRound(Winner(r.winner), r.banker_pair, r.player_pair, index) for index, r in enumerate(rounds)]
    return ShoeRoads(Roads.of(road_rounds), rounds)
