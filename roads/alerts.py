"""When a good road forms, and how long each has held: what a good-road alert and the
good-roads view tell a player (issue 36). Plain Python over the roads, no framework.

A good road is announced once, on the round it forms, and again only after it has ended
and formed anew: a Long Banker of five, six, seven Bankers is one alert."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .engine import Roads
from .entries import RoadRound
from .patterns import DEFAULT_RULES, GoodRoadRules


def formed(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """The good roads that hold ``after`` a round and did not ``before`` it, in the
    order ``after`` lists them."""
    held = set(before)
    return [name for name in after if name not in held]


def pattern_runs(rounds: Iterable[RoadRound], rules: GoodRoadRules = DEFAULT_RULES) -> dict[str, int]:
    """Each good road that holds after the last of ``rounds`` (played rounds, in order),
    with how many rounds it has held: 1 when it formed on the last round. Ties count as
    rounds: a pattern holds through them."""
    roads, runs = Roads(rules), dict[str, int]()
    for round_ in rounds:
        roads.append(round_)
        runs = {name: runs.get(name, 0) + 1 for name in roads.good_roads()}
    return runs


def newly_formed(rounds: Sequence[RoadRound], rules: GoodRoadRules = DEFAULT_RULES) -> list[str]:
    """The good roads the last of ``rounds`` formed (none before the first round)."""
    if not rounds:
        return []
    before = Roads.of(rounds[:-1], rules)
    after = Roads.of(rounds, rules)
    return formed(before.good_roads(), after.good_roads())
