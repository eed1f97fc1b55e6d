"""Streaks and chops: how unlikely a run of one side (or of alternating sides) is in a
shoe, under the shoe's exact odds.

Runs are counted as the Big Road draws them: ties neither break nor extend a run; and,
strictly, as "in a row": a tie ends the run (Banker 20 in a row, no tie between, is far
rarer than 20 Banker columns' worth with ties inside, and is found sooner). The chance
that some run reaches a length within a number of rounds is exact, by a walk over (last
side, run length so far) with the chances of each round; a shoe is judged as a whole
shoe (at least as many rounds as a full shoe deals), so looking after every round does
not make a long run look rarer than it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .alarms import AlarmKind, Finding
from .outcome import Winner
from .review import full_shoe_rates
from .seen import ShoeSeen
from .shoe import DECK_SIZE
from .thresholds import Thresholds

CARDS_PER_ROUND = 4.94  # an 8-deck shoe's average (4 cards, a third card or two as drawn)
BURN_AVERAGE = 7.5  # card 1 and the cards it burns, on average: 1 + 85 / 13

Odds = tuple[float, float, float]  # banker, player, tie


def full_shoe_rounds(decks: int) -> int:
    """About how many rounds a shoe of ``decks`` deals to a cut card one deck from the
    bottom (about 72 for 8 decks)."""
    cards = DECK_SIZE * max(1, decks - 1) - BURN_AVERAGE
    return max(1, round(cards / CARDS_PER_ROUND))


def run_chance(length: int, odds: Sequence[Odds], *, alternating: bool = False, ties_break: bool = False) -> float:
    """The exact chance that rounds with these per-round ``odds`` (banker, player, tie)
    hold a run of one side of at least ``length`` (ties skipped; with ``ties_break``, a
    tie ends it), or with ``alternating``, a run of ``length`` results each the other
    side of the one before (a chop, ``BPBP``)."""
    if length <= 1:
        return 1.0 if any(b + p > 0 for b, p, _ in odds) else 0.0
    # alive[side][k]: no run of `length` yet, the last result `side`, its run k + 1 long
    alive = [[0.0] * (length - 1), [0.0] * (length - 1)]
    start, done = 1.0, 0.0
    for banker, player, tie in odds:
        chances = (banker, player)
        new = [[0.0] * (length - 1), [0.0] * (length - 1)]
        for side in (0, 1):
            other = 1 - side
            win = chances[side]
            # Who this result extends: a streak extends the same side, a chop the other.
            extended = alive[other] if alternating else alive[side]
            broken = sum(alive[side] if alternating else alive[other])
            new[side][0] += win * (start + broken)
            for k, mass in enumerate(extended):
                if k + 1 >= length - 1:
                    done += win * mass
                else:
                    new[side][k + 1] += win * mass
            if not ties_break:
                for k, mass in enumerate(alive[side]):
                    new[side][k] += tie * mass
        start = tie * (start + sum(map(sum, alive))) if ties_break else start * tie
        alive = new
    return min(1.0, done)


@dataclass(frozen=True, slots=True)
class Run:
    """A run of the shoe: its side (the first side for a chop), its length in results,
    and the numbers of its rounds (ties inside it included)."""

    side: Winner
    length: int
    rounds: tuple[int, ...]


def longest_run(shoe: ShoeSeen, *, alternating: bool = False, ties_break: bool = False) -> Run | None:
    """The shoe's longest run of one side (or chop), the latest on a draw; with
    ``ties_break``, runs with no tie inside them."""
    best: Run | None = None
    side = first = None
    length, rounds = 0, list[int]()
    for r in shoe.rounds:
        if r.winner is Winner.TIE:
            if ties_break:
                side, length, rounds = None, 0, []
            elif length:
                rounds.append(r.number)
            continue
        # A streak goes on with the same side, a chop with the other one.
        if side is not None and (r.winner is side) != alternating:
            length += 1
            rounds.append(r.number)
        else:
            length, rounds, first = 1, [r.number], r.winner
        side = r.winner
        if first is not None and (best is None or length >= best.length):
            best = Run(first, length, tuple(rounds))
    return best


@lru_cache(maxsize=256)
def critical_length(
    decks: int, rounds: int, level: float, *, alternating: bool = False, ties_break: bool = False
) -> int:
    """The shortest run (or chop, with ``alternating``; strictly in a row, with
    ``ties_break``) whose chance in ``rounds`` rounds at the full shoe's odds of ``decks``
    is under ``level``."""
    rates = full_shoe_rates(decks)
    odds = [(rates["banker"], rates["player"], rates["tie"])] * rounds
    low, high = 2, rounds + 1  # no run is longer than the rounds: its chance is 0
    while low < high:  # a bisection: the chance only falls as the run grows
        middle = (low + high) // 2
        if run_chance(middle, odds, alternating=alternating, ties_break=ties_break) < level:
            high = middle
        else:
            low = middle + 1
    return low


def shoe_odds_list(shoe: ShoeSeen) -> list[Odds]:
    """Each round's odds (the shell's, or the full shoe's), then the full shoe's for the
    rounds a full shoe would still deal."""
    rates = full_shoe_rates(shoe.decks)
    full: Odds = (rates["banker"], rates["player"], rates["tie"])
    odds = [r.odds or full for r in shoe.rounds]
    return odds + [full] * max(0, full_shoe_rounds(shoe.decks) - len(odds))


# The runs judged: (alternating, ties_break, the name in a finding's key, the test's name).
RUNS = (
    (False, False, "", "streak_length"),  # a side's run as the Big Road draws it
    (False, True, "strict", "strict_streak_length"),  # a side's run in a row, no tie inside
    (True, False, "chop", "chop_length"),  # sides alternating
)


def streak_findings(shoe: ShoeSeen, thresholds: Thresholds) -> list[Finding]:
    """STREAK: the shoe's longest run of one side (as the Big Road draws it, and strictly
    in a row), and its longest chop, when the chance of a run that long in a whole shoe
    is under :attr:`Thresholds.streak`. Key ``shoe:<key>:streak:<side|strict-side|chop>:
    <first round>:<length>``: a run growing longer is a new, worse finding."""
    findings = []
    odds: list[Odds] | None = None
    for alternating, ties_break, prefix, test in RUNS:
        run = longest_run(shoe, alternating=alternating, ties_break=ties_break)
        if run is None or run.length < 2:
            continue
        odds = odds or shoe_odds_list(shoe)
        # With the full shoe's odds throughout, the length that raises is known beforehand.
        if all(r.odds is None for r in shoe.rounds) and run.length < critical_length(
            shoe.decks, len(odds), thresholds.streak, alternating=alternating, ties_break=ties_break
        ):
            continue
        p_value = run_chance(run.length, odds, alternating=alternating, ties_break=ties_break)
        severity = thresholds.severity(p_value, thresholds.streak)
        if severity is None:
            continue
        side = run.side.label.lower()
        name = prefix if alternating else f"{prefix}-{side}" if prefix else side
        findings.append(
            Finding(
                AlarmKind.STREAK,
                severity,
                shoe.key(AlarmKind.STREAK, name, run.rounds[0], run.length),
                shoe.round_number,
                {
                    "test": test,
                    "statistic": run.length,
                    "p_value": p_value,
                    "side": run.side.value,
                    "rounds": list(run.rounds),
                    "cards": [],
                    "rounds_judged": len(odds),
                },
            )
        )
    return findings
