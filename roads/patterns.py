"""Good roads (seed 001), judged on the Big Road's logical columns as they stand.

A pattern counts only if it ends at the newest column, at its current length.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .entries import Winner


@dataclass(frozen=True)
class GoodRoadRules:
    """The thresholds, in one place."""

    long_streak: int = 4  # Long Banker / Long Player: at least this many in a row
    lounge_repeats: int = 2  # 1 Lounge 2 Rooms: (1, 2) this many times
    single_columns: int = 4  # Big Road Single: at least this many one-entry columns
    consecutive_repeats: int = 3  # Consecutive: (>=2, >=1) this many times
    clap_columns: int = 4  # Clap Clap Road: at least this many columns of 2 or more


DEFAULT_RULES = GoodRoadRules()

# Each pattern's name as seed 001 prints it.
PATTERN_NAMES = {
    "long_banker": "Long Banker",
    "long_player": "Long Player",
    "one_lounge_two_rooms_banker": "1 Lounge 2 Rooms (Banker)",
    "one_lounge_two_rooms_player": "1 Lounge 2 Rooms (Player)",
    "big_road_single": "Big Road Single",
    "consecutive_banker": "Consecutive Banker",
    "consecutive_player": "Consecutive Player",
    "clap_clap_road": "Clap Clap Road",
}


def good_roads(columns: Sequence[tuple[Winner, int]], rules: GoodRoadRules = DEFAULT_RULES) -> list[str]:
    """The patterns that hold now; ``columns`` are (winner, depth), oldest first."""
    if not columns:
        return []
    found = []
    winner, depth = columns[-1]
    if depth >= rules.long_streak:
        found.append("long_banker" if winner is Winner.BANKER else "long_player")
    for side, name in ((Winner.BANKER, "one_lounge_two_rooms_banker"), (Winner.PLAYER, "one_lounge_two_rooms_player")):
        if _ends_with(columns, side, [(1, 1), (2, 2)] * rules.lounge_repeats):
            found.append(name)
    if _last_all(columns, rules.single_columns, lambda d: d == 1):
        found.append("big_road_single")
    for side, name in ((Winner.BANKER, "consecutive_banker"), (Winner.PLAYER, "consecutive_player")):
        if _ends_with(columns, side, [(2, None), (1, None)] * rules.consecutive_repeats):
            found.append(name)
    if _last_all(columns, rules.clap_columns, lambda d: d >= 2):
        found.append("clap_clap_road")
    return found


def _ends_with(columns: Sequence[tuple[Winner, int]], first: Winner, shape: list[tuple[int, int | None]]) -> bool:
    """The last ``len(shape)`` columns alternate from ``first`` with depths in
    ``[low, high]`` (``None``: no upper bound)."""
    if len(columns) < len(shape):
        return False
    tail = columns[-len(shape) :]
    for i, ((winner, depth), (low, high)) in enumerate(zip(tail, shape, strict=True)):
        expected = first if i % 2 == 0 else _other(first)
        if winner is not expected or depth < low or (high is not None and depth > high):
            return False
    return True


def _last_all(columns: Sequence[tuple[Winner, int]], count: int, test: Callable[[int], bool]) -> bool:
    return len(columns) >= count and all(test(depth) for _, depth in columns[-count:])


def _other(winner: Winner) -> Winner:
    return Winner.PLAYER if winner is Winner.BANKER else Winner.BANKER
