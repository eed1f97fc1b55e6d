"""When a good road forms, and how long each has held: what a good-road alert and the
good-roads view tell a player (issue 36). Plain Python over the roads, no framework.

A good road is announced once, on the round it forms, and again only after it has ended
and formed anew: a Long Banker of five, six, seven Bankers is one alert."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .engine import Roads
from .entries import RoadRound
from .patterns import DEFAULT_RULES, GoodRoadRules


@dataclass(frozen=True)
class HeldRoads:
    """A shoe's roads, and each good road that holds after its last round with how many
    rounds it has held (1: it formed on the last round)."""

    roads: Roads
    runs: dict[str, int]

    @property
    def formed(self) -> list[str]:
        """The good roads the last round formed."""
        return [name for name, run in self.runs.items() if run == 1]


def held_roads(
    rounds: Iterable[RoadRound],
    rules: GoodRoadRules = DEFAULT_RULES,
    *,
    known: tuple[int, dict[str, int]] = (0, {}),
    built: Roads | None = None,
) -> HeldRoads:
    """The roads of ``rounds`` (played rounds, in order), built once, and how long each
    good road has held. Ties count as rounds: a pattern holds through them. ``known``:
    the runs after the first few of these rounds, as an earlier call found them (a shoe
    one round on looks for good roads after its new round only); ``built``, the roads of
    those first few rounds too, to go on from (extended in place, and returned)."""
    start, runs = known
    roads = built if built is not None else Roads(rules)
    for index, round_ in enumerate(rounds):
        if index < start and built is not None:
            continue
        roads.append(round_)
        if index >= start:
            runs = {name: runs.get(name, 0) + 1 for name in roads.good_roads()}
    return HeldRoads(roads, runs)


def pattern_runs(rounds: Iterable[RoadRound], rules: GoodRoadRules = DEFAULT_RULES) -> dict[str, int]:
    """Each good road that holds after the last of ``rounds``, with how many rounds it has held."""
    return held_roads(rounds, rules).runs


def newly_formed(rounds: Sequence[RoadRound], rules: GoodRoadRules = DEFAULT_RULES) -> list[str]:
    """The good roads the last of ``rounds`` formed (none before the first round)."""
    return held_roads(rounds, rules).formed
