"""Roads: full recompute of 80-round shoes against the per-round incremental update.

Figures are ratios measured in one run on the same machine, not absolute targets.
"""

from __future__ import annotations

import random
import statistics
import time

from roads.engine import Roads
from roads.entries import RoadRound, Winner

SHOES = 1_000
ROUNDS = 80
WEIGHTS = (0.4586, 0.4462, 0.0952)


def random_shoes(count: int, rounds: int, seed: int = 1) -> list[list[RoadRound]]:
    rng = random.Random(seed)
    winners = (Winner.BANKER, Winner.PLAYER, Winner.TIE)
    return [
        [
            RoadRound(w, rng.random() < 0.075, rng.random() < 0.075, i)
            for i, w in enumerate(rng.choices(winners, WEIGHTS, k=rounds))
        ]
        for _ in range(count)
    ]


def per_round_us(seconds: float, rounds: int) -> float:
    return seconds / rounds * 1e6


def main() -> dict[str, float]:
    shoes = random_shoes(SHOES, ROUNDS)

    start = time.perf_counter()
    for shoe in shoes:
        Roads.of(shoe).to_data()
    full_with_json = time.perf_counter() - start

    start = time.perf_counter()
    for shoe in shoes:
        Roads.of(shoe)
    full = time.perf_counter() - start

    # Incremental: the 80th round appended to a shoe that holds 79, timed one by one.
    samples = []
    for shoe in shoes:
        roads = Roads.of(shoe[:-1])
        t0 = time.perf_counter_ns()
        roads.append(shoe[-1])
        samples.append(time.perf_counter_ns() - t0)
    append_us = statistics.median(samples) / 1000
    full_shoe_us = full / SHOES * 1e6

    figures = {
        "full recompute, µs per round (engine)": per_round_us(full, SHOES * ROUNDS),
        "full recompute, µs per round (engine + JSON)": per_round_us(full_with_json, SHOES * ROUNDS),
        "full recompute of an 80-round shoe, µs": full_shoe_us,
        "incremental update of one round, µs (median)": append_us,
        "full recompute ÷ incremental update": full_shoe_us / append_us,
    }
    return figures


if __name__ == "__main__":
    for name, value in main().items():
        print(f"{name:52s} {value:10.1f}")
