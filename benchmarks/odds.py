"""Odds: a full analysis (every bet's return table) of a full 8-deck shoe and of a shoe
40 rounds in, beside a plain enumeration of the same depleted shoe: every ordered
draw of six card values, each dealt by the rules. The two must agree exactly.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter

from tables.game.odds import Composition, Hands, falling, hands_counts, shoe_odds
from tables.game.rules import banker_draws, player_draws
from tables.game.shoe import DealingShoe

RUNS = 20


def plain_hands_counts(values: tuple[int, ...]) -> dict[Hands, int]:
    """The obvious way: six nested draws of a value, weight = cards of that value left."""
    c, size, counts = list(values), sum(values), Counter[Hands]()
    for p1 in range(10):
        w1 = c[p1]
        c[p1] -= 1
        for b1 in range(10):
            w2 = w1 * c[b1]
            c[b1] -= 1
            for p2 in range(10):
                w3 = w2 * c[p2]
                c[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * c[b2]
                    c[b2] -= 1
                    for p3 in range(10):
                        w5 = w4 * c[p3]
                        c[p3] -= 1
                        for b3 in range(10):
                            w6 = w5 * c[b3]
                            if w6 > 0:
                                counts[_deal(p1, b1, p2, b2, p3, b3)] += w6
                        c[p3] += 1
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    assert sum(counts.values()) == falling(size, 6)
    return dict(counts)


def _deal(p1: int, b1: int, p2: int, b2: int, p3: int, b3: int) -> Hands:
    player, banker = (p1 + p2) % 10, (b1 + b2) % 10
    third: int | None = None
    player_cards = banker_cards = 2
    if player_draws(player, banker):
        third, player_cards = p3, 3
    if banker_draws(player, banker, third):
        banker_cards = 3
        banker = (banker + (b3 if third is not None else p3)) % 10  # the next card off the shoe
    if third is not None:
        player = (player + p3) % 10
    return Hands(player, banker, player_cards, banker_cards)


def _depleted() -> Composition:
    shoe = DealingShoe.shuffled(rng=random.Random(40))
    dealt = [card for _ in range(40) for card in shoe.deal().cards]
    return Composition.full(8).without(dealt)


def _median_ms(composition: Composition) -> float:
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        shoe_odds(composition)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> dict[str, float]:
    depleted = _depleted()
    full_ms, depleted_ms = _median_ms(Composition.full(8)), _median_ms(depleted)
    start = time.perf_counter()
    plain = plain_hands_counts(depleted.values)
    plain_ms = (time.perf_counter() - start) * 1000
    assert plain == hands_counts(depleted.values), "the two enumerations disagree"
    return {
        "full analysis of a full 8-deck shoe, ms (median)": full_ms,
        f"full analysis of a shoe 40 rounds in ({depleted.size} cards), ms": depleted_ms,
        "plain enumeration of the same shoe (main game only), ms": plain_ms,
        "plain enumeration ÷ full analysis": plain_ms / depleted_ms,
    }


if __name__ == "__main__":
    for name, value in main().items():
        print(f"{name:60s} {value:10.1f}")
