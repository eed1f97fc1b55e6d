"""Good roads, judged on the Big Road's logical columns as they stand: seed 001's eight
and four more that Asian lobbies highlight (issue 21).

A pattern counts only if it ends at the newest column, at its current length.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from .entries import Winner


@dataclass(frozen=True)
class GoodRoadRules:
    """The thresholds, in one place."""

    long_streak: int = 4  # Long Banker / Long Player: at least this many in a row
    lounge_repeats: int = 2  # 1 Lounge 2 Rooms: (1, 2) this many times
    single_columns: int = 4  # Big Road Single: at least this many one-entry columns
    consecutive_repeats: int = 3  # Consecutive: (>=2, >=1) this many times
    clap_columns: int = 4  # Clap Clap Road: at least this many columns of 2 or more
    double_jump_columns: int = 4  # Double Jump: this many columns of exactly 2
    jump_singles: int = 3  # Banker / Player Always Jumps: this many single entries of the side
    slope_columns: int = 4  # Slope Road: this many columns, each one longer than the last


DEFAULT_RULES = GoodRoadRules()


@dataclass(frozen=True)
class Pattern:
    """A good road as a lobby shows it."""

    key: str  # its name in the API, ``manage.py roads`` and the lobby's filter
    name: str  # in English: as seed 001 prints it, or the lobbies' usual name
    zh_hans: str | None  # its Chinese names where issue 21 gives them, for the translations
    zh_hant: str | None
    example: str  # a short shoe that shows it: the picture in the lobby's good road settings


PATTERNS = (
    Pattern("long_banker", "Long Banker", None, None, "PBBBB"),
    Pattern("long_player", "Long Player", None, None, "BPPPP"),
    Pattern("one_lounge_two_rooms_banker", "1 Lounge 2 Rooms (Banker)", None, None, "BPPBPP"),
    Pattern("one_lounge_two_rooms_player", "1 Lounge 2 Rooms (Player)", None, None, "PBBPBB"),
    Pattern("big_road_single", "Big Road Single", None, None, "BPBP"),
    Pattern("consecutive_banker", "Consecutive Banker", None, None, "BBPBBBPBBP"),
    Pattern("consecutive_player", "Consecutive Player", None, None, "PPBPPPBPPB"),
    Pattern("clap_clap_road", "Clap Clap Road", None, None, "BBPPPBBPP"),
    Pattern("double_jump", "Double Jump", "大路双跳", "大路雙跳", "BBPPBBPP"),
    Pattern("banker_always_jumps", "Banker Always Jumps", "逢庄跳", "逢莊跳", "BPPBPB"),
    Pattern("player_always_jumps", "Player Always Jumps", "逢闲跳", "逢閒跳", "PBBPBP"),
    Pattern("slope_road", "Slope Road", "斜坡路", "斜坡路", "BPPBBBPPPP"),
)
PATTERN_NAMES = {p.key: p.name for p in PATTERNS}


def good_roads(columns: Sequence[tuple[Winner, int]], rules: GoodRoadRules = DEFAULT_RULES) -> list[str]:
    """The patterns that hold now, in the order of :data:`PATTERNS`; ``columns`` are
    (winner, depth), oldest first."""
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
    if _last_all(columns, rules.double_jump_columns, lambda d: d == 2):
        found.append("double_jump")
    # A single of the side, then (the other side, at least one; a single of the side)
    # again and again, ending at the newest column.
    jumps: list[tuple[int, int | None]] = [(1, 1)] + [(1, None), (1, 1)] * (rules.jump_singles - 1)
    for side, name in ((Winner.BANKER, "banker_always_jumps"), (Winner.PLAYER, "player_always_jumps")):
        if _ends_with(columns, side, jumps):
            found.append(name)
    if _rises_by_one(columns, rules.slope_columns):
        found.append("slope_road")
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


def _rises_by_one(columns: Sequence[tuple[Winner, int]], count: int) -> bool:
    """The last ``count`` columns are n, n + 1, n + 2, ... long."""
    if len(columns) < count:
        return False
    depths = [depth for _, depth in columns[-count:]]
    return all(later - earlier == 1 for earlier, later in pairwise(depths))


def _other(winner: Winner) -> Winner:
    return Winner.PLAYER if winner is Winner.BANKER else Winner.BANKER
