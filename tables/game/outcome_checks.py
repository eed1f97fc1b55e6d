"""Outcome statistics live: the per-shoe tests of the reviewer's statistics
(:mod:`tables.game.review`), run on the shoe as it is dealt.

The review's chi-square of each event (Banker, Player, Tie, each pair, naturals) is a
large-sample figure: on a shoe twenty rounds in, five pairs where 1.5 are expected
reads as 1e-7 while its exact chance is 1e-3. So each event's p-value here is its exact
binomial tail (both sides); the review's rows and its Banker / Player / Tie chi-square
go into the evidence as they are (that chi-square, for ties far over their odds early in
a shoe, reads 1e-18 where the exact tail is 1e-7: it does not decide).
"""

from __future__ import annotations

from .alarms import AlarmKind, Finding
from .cards import ALL_CARDS
from .outcome import Winner
from .review import EVENTS, Tally, full_shoe_rates
from .seen import ShoeSeen
from .tails import binomial_cdf, binomial_critical, binomial_low_critical, binomial_sf
from .thresholds import Thresholds

MIN_ROUNDS = 20  # fewer rounds test nothing worth a look
_WINNER_EVENTS = {Winner.BANKER: "banker", Winner.PLAYER: "player", Winner.TIE: "tie"}


def event_p_value(observed: int, rounds: int, rate: float) -> float:
    """Two-sided exact p-value of ``observed`` events in ``rounds`` of chance ``rate``:
    twice the smaller binomial tail."""
    upper = binomial_sf(observed, rounds, rate)
    lower = binomial_cdf(observed, rounds, rate)
    return min(1.0, 2 * min(upper, lower))


_VALUES = [card.value for card in ALL_CARDS]


def shoe_tally(shoe: ShoeSeen) -> Tally:
    """The review's :class:`~tables.game.review.Tally` of the shoe's rounds (winners,
    pairs, naturals), read from the cards' indexes (it runs after every round)."""
    counts = {"banker": 0, "player": 0, "tie": 0, "player_pair": 0, "banker_pair": 0, "natural": 0}
    indexes, at = shoe.indexes, 0
    for r in shoe.rounds:
        counts[_WINNER_EVENTS[r.winner]] += 1
        size = len(r.player) + len(r.banker)
        if size >= 4:
            p1, b1, p2, b2 = indexes[at : at + 4]
            counts["player_pair"] += p1 % 13 == p2 % 13
            counts["banker_pair"] += b1 % 13 == b2 % 13
            natural = (_VALUES[p1] + _VALUES[p2]) % 10 >= 8 or (_VALUES[b1] + _VALUES[b2]) % 10 >= 8
            counts["natural"] += natural
        at += size
    return Tally(len(shoe.rounds), counts)


def outcomes_finding(shoe: ShoeSeen, thresholds: Thresholds) -> Finding | None:
    """OUTCOMES: the lowest p-value of the shoe's per-event tests under
    :attr:`Thresholds.outcomes`; key ``shoe:<key>:outcomes:<severity>``."""
    if len(shoe.rounds) < MIN_ROUNDS:
        return None
    tally = shoe_tally(shoe)
    rates = full_shoe_rates(shoe.decks)
    review = tally.frequencies(rates)
    # Each event's p-value is under the threshold exactly when one of its tails is under half of it.
    level, n = thresholds.outcomes / 2, tally.rounds
    if all(
        binomial_low_critical(n, rates[e], level) < tally.counts[e] < binomial_critical(n, rates[e], level)
        for e in EVENTS
    ):
        return None
    p_values = {e: event_p_value(tally.counts[e], tally.rounds, rates[e]) for e in EVENTS}
    test = min(p_values, key=lambda name: p_values[name])
    severity = thresholds.severity(p_values[test], thresholds.outcomes)
    if severity is None:
        return None
    return Finding(
        AlarmKind.OUTCOMES,
        severity,
        shoe.key(AlarmKind.OUTCOMES, severity),
        shoe.round_number,
        {
            "test": test,
            "statistic": tally.counts[test],
            "p_value": p_values[test],
            "rounds_tested": tally.rounds,
            "events": {
                row.event: {"observed": row.observed, "expected": row.expected, "p_value": p_values[row.event]}
                for row in review.rows
            },
            "review_lowest_p": review.lowest_p,  # the reviewer's chi-squares, split included
            "review_split_p": review.split.p_value if review.split is not None else None,
            "rounds": [],
            "cards": [],
        },
    )
