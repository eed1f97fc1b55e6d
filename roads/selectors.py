"""Reads: a shoe's roads from its non-voided rounds."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from tables.game.outcome import Winner
from tables.models import Round, Shoe

from .engine import Roads
from .entries import RoadRound


@dataclass
class ShoeRoads:
    """The roads of a shoe with the rounds they were built from (for titles)."""

    roads: Roads
    rounds: list[Round]

    @cached_property
    def titles(self) -> list[str]:
        """What each round was, for the hover title of its marks."""
        return [round_title(r) for r in self.rounds]

    @cached_property
    def short_titles(self) -> list[str]:
        """Just the round number: a derived road's marks compare columns, not hands."""
        return [f"Round {r.number}" for r in self.rounds]


def round_title(round_: Round) -> str:
    player = " ".join(c.label for c in round_.player_hand)
    banker = " ".join(c.label for c in round_.banker_hand)
    return (
        f"Round {round_.number}: {Winner(round_.winner).verdict} {round_.player_score}–{round_.banker_score} · "
        f"Player {player} · Banker {banker}"
    )


def shoe_roads(*, shoe: Shoe | None) -> ShoeRoads:
    """Voided rounds are kept for audit but left out of the roads."""
    return roads_of(list(shoe.rounds.order_by("number")) if shoe else [])


def roads_of(rounds: list[Round]) -> ShoeRoads:
    """The roads of a shoe's rounds, given oldest first; voided ones are left out."""
    played = [r for r in rounds if not r.voided]
    road_rounds = [RoadRound(Winner(r.winner), r.banker_pair, r.player_pair, index) for index, r in enumerate(played)]
    return ShoeRoads(Roads.of(road_rounds), played)
