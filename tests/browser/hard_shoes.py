"""Hard shoes for the screens: rounds whose winners follow a pattern, dealt by the game's
own rules from one 8-deck shoe (no card dealt more often than the shoe holds it)."""

from __future__ import annotations

import random

from tables.game.cards import ALL_CARDS, Card
from tables.game.dealing import deal_round
from tables.game.outcome import Winner

CHOPPY = "PB" * 40  # 80 rounds, every one the other side: 80 Big Road columns
STREAK = "PBPTBP" + "B" * 40 + "PBTPB"  # a 40-Banker dragon inside a shoe
TIE_HEAVY = "TT" + "PBT" * 20  # ties at the start, then a tie every third round


def rounds_of(pattern: str, seed: int) -> list[dict[str, list[str]]]:
    """A round for each winner of ``pattern`` (P, B, T), each dealt from the shoe's cards
    left: a round is drawn from them at random until its winner is the one asked (``seed``:
    a shoe of its own; two shoes of one seed deal the same cards, a reused shoe)."""
    rng = random.Random(seed)
    left = list(ALL_CARDS) * 8
    rounds = []
    for wanted in pattern:
        for _ in range(20_000):
            rng.shuffle(left)
            outcome = deal_round(iter(left).__next__)
            if outcome.winner is Winner(wanted):
                break
        else:
            raise ValueError(f"no round of {wanted} left after {len(rounds)} rounds")
        dealt: list[Card] = [*outcome.player_cards, *outcome.banker_cards]
        for card in dealt:
            left.remove(card)
        rounds.append(
            {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        )
    return rounds
