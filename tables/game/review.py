"""Reviewer statistics: observed results against their exact expectations.

Chi-square goodness-of-fit tests of the Banker/Player/Tie split and of the side events
(pairs, naturals), the distribution of streak lengths against a game of independent
rounds, and flat-bet "what if" curves. Plain Python: p-values come from the
chi-square survival function's closed forms for whole degrees of freedom.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .odds import Composition, hands_counts
from .outcome import PlayedRound, Winner

EVENTS = ("banker", "player", "tie", "player_pair", "banker_pair", "natural")


@lru_cache(maxsize=16)
def full_shoe_rates(decks: int) -> dict[str, float]:
    """:func:`expected_rates` of a full shoe of ``decks``: computing them walks every hand,
    so once per deck count (callers must not change the dict)."""
    return expected_rates(Composition.full(decks))


def expected_rates(composition: Composition | None = None) -> dict[str, float]:
    """Exact chance per round of each event, for a full shoe by default."""
    composition = composition or Composition.full(8)
    hands = hands_counts(composition.values)
    total = sum(hands.values())

    def share(matches: Iterable[bool]) -> float:
        return float(Fraction(sum(n for h, n, m in zip(hands, hands.values(), matches, strict=True) if m), total))

    size = composition.size
    pair = Fraction(sum(n * (n - 1) for n in composition.ranks), size * (size - 1))
    return {
        "banker": share(h.winner is Winner.BANKER for h in hands),
        "player": share(h.winner is Winner.PLAYER for h in hands),
        "tie": share(h.winner is Winner.TIE for h in hands),
        "player_pair": float(pair),
        "banker_pair": float(pair),
        "natural": share(h.player_natural or h.banker_natural for h in hands),
    }


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` (whole) degrees of freedom."""
    if df < 1:
        raise ValueError("degrees of freedom must be at least 1")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term = total = 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    root = math.sqrt(x)
    total, term = math.erfc(root / math.sqrt(2)), math.sqrt(2 * x / math.pi) * math.exp(-half)
    for r in range(1, (df + 1) // 2):
        total += term
        term *= x / (2 * r + 1)
    return min(1.0, total)


@dataclass(frozen=True)
class ChiSquare:
    """A chi-square goodness-of-fit test: its statistic, degrees of freedom and p-value."""

    statistic: float
    df: int
    p_value: float


def chi_square(observed: Sequence[int], probabilities: Sequence[float]) -> ChiSquare | None:
    """Goodness of fit of counts to category probabilities; None without data."""
    n = sum(observed)
    if n == 0:
        return None
    statistic = sum((o - n * p) ** 2 / (n * p) for o, p in zip(observed, probabilities, strict=True) if p > 0)
    df = len(observed) - 1
    return ChiSquare(statistic, df, chi2_sf(statistic, df))


@dataclass(frozen=True)
class EventRow:
    """One event of a review (Banker, a pair, a natural, ...): observed against expected, and its test."""

    event: str
    observed: int
    expected: float  # count
    test: ChiSquare | None


@dataclass(frozen=True)
class Frequencies:
    """A review of rounds: each event's row, and Banker / Player / Tie tested together."""

    rounds: int
    rows: tuple[EventRow, ...]
    split: ChiSquare | None  # Banker / Player / Tie together, 2 degrees of freedom

    @property
    def lowest_p(self) -> float | None:
        """The lowest p-value of all the review's tests: what a flag is set by."""
        tests = [t.p_value for t in (self.split, *(r.test for r in self.rows)) if t is not None]
        return min(tests) if tests else None

    def flagged(self, threshold: float) -> bool:
        """The review's flag: some test's p-value under ``threshold``."""
        lowest = self.lowest_p
        return lowest is not None and lowest < threshold


# The event each winner counts as (see EVENTS).
_WINNER_EVENTS = {Winner.BANKER: "banker", Winner.PLAYER: "player", Winner.TIE: "tie"}


class Tally:
    """Counts of each event over rounds added one at a time: a review of many rounds that
    never holds them all (the review page streams a year of history through one)."""

    def __init__(self, rounds: int = 0, counts: Mapping[str, int] | None = None) -> None:
        self.rounds = rounds
        self.counts = Counter[str](counts or {})

    def add(self, r: PlayedRound) -> None:
        """Count one more round."""
        self.rounds += 1
        self.counts[_WINNER_EVENTS[r.winner]] += 1
        self.counts["player_pair"] += r.player_pair
        self.counts["banker_pair"] += r.banker_pair
        self.counts["natural"] += r.natural

    def then(self, later: Tally) -> Tally:
        """The counts of these rounds and ``later``'s together."""
        return Tally(self.rounds + later.rounds, self.counts + later.counts)

    def frequencies(self, rates: Mapping[str, float]) -> Frequencies:
        """Observed counts of each event against the exact expectation, each with a
        chi-square test (1 degree of freedom), and the B/P/T split tested together."""
        n, counts = self.rounds, self.counts
        rows = tuple(
            EventRow(e, counts[e], n * rates[e], chi_square([counts[e], n - counts[e]], [rates[e], 1 - rates[e]]))
            for e in EVENTS
        )
        split = chi_square(
            [counts["banker"], counts["player"], counts["tie"]], [rates["banker"], rates["player"], rates["tie"]]
        )
        return Frequencies(n, rows, split)


def frequencies(rounds: Iterable[PlayedRound], rates: Mapping[str, float]) -> Frequencies:
    """:meth:`Tally.frequencies` of ``rounds``."""
    tally = Tally()
    for r in rounds:
        tally.add(r)
    return tally.frequencies(rates)


def streak_lengths(winners: Iterable[Winner]) -> list[int]:
    """Lengths of the runs of one side winning, ties ignored (the Big Road's columns);
    the last run is left out: it may not have ended yet."""
    lengths: list[int] = []
    last = None
    for w in winners:
        if w is Winner.TIE:
            continue
        if w is last:
            lengths[-1] += 1
        else:
            lengths.append(1)
            last = w
    return lengths[:-1]


def expected_streaks(streaks: int, rates: Mapping[str, float], longest: int) -> list[float]:
    """Expected number of streaks of each length 1..longest (the last one: or more),
    among ``streaks`` streaks of independent rounds. Banker and Player streaks
    alternate, so half are each side's, and each side's length is geometric."""
    banker = rates["banker"] / (rates["banker"] + rates["player"])
    expected = []
    for length in range(1, longest + 1):
        share = 0.0
        for stay in (banker, 1 - banker):
            share += 0.5 * (stay ** (length - 1) if length == longest else (1 - stay) * stay ** (length - 1))
        expected.append(streaks * share)
    return expected


def flat_bet_curve(pays: Iterable[float | None]) -> list[float]:
    """Units won or lost so far, one unit on every round the bet was open (``None``:
    closed, e.g. past its Max Round Limitation)."""
    total, curve = 0.0, []
    for result in pays:
        if result is not None:
            total += result
        curve.append(round(total, 4))
    return curve


class FlatBetCurves:
    """:func:`flat_bet_curve` of several bets over rounds added one at a time, kept every
    ``step`` rounds (after round ``step``, ``2 * step``, ...): a curve of a year of rounds
    thinned to a chart's points without holding the rounds."""

    def __init__(self, bets: Iterable[str], step: int) -> None:
        if step < 1:
            raise ValueError("a curve keeps a point every step rounds, step at least 1")
        self.step, self.rounds = step, 0
        self.totals = dict.fromkeys(bets, 0.0)
        self.curves: dict[str, list[float]] = {bet: [] for bet in self.totals}

    def add(self, pays: Mapping[str, float | None]) -> None:
        """One round: what one unit on each bet paid (missing or ``None``: not open)."""
        self.rounds += 1
        for bet in self.totals:
            result = pays.get(bet)
            if result is not None:
                self.totals[bet] += result
        if self.rounds % self.step == 0:
            for bet, total in self.totals.items():
                self.curves[bet].append(round(total, 4))

    @property
    def kept_after(self) -> list[int]:
        """The round each kept point stands after."""
        return list(range(self.step, self.rounds + 1, self.step))
