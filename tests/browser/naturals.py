"""Rounds with the winners a test asks for: each decided by a natural (two cards a hand,
no draw), their cards taken from one eight-deck shoe so that no card is dealt more often
than the shoe holds (the API refuses a ninth)."""

from __future__ import annotations

import itertools
from collections import Counter

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def _points(code: str) -> int:
    return 0 if code[0] in "TJQK" else RANKS.index(code[0]) + 1


class NaturalShoe:
    """One shoe's cards, dealt as rounds of chosen winners ("B", "P" or "T")."""

    def __init__(self) -> None:
        self.left = Counter({rank + suit: 8 for rank in RANKS for suit in SUITS})

    def _hand(self, totals: tuple[int, ...]) -> list[str]:
        """Two cards scoring one of ``totals`` (the first it can), from the cards the shoe
        holds most of; deterministic, so a test's roads are the same every run."""
        cards = sorted(self.left, key=lambda code: -self.left[code])
        for total in totals:
            for first, second in itertools.product(cards, repeat=2):
                enough = self.left[first] >= (2 if first == second else 1) and self.left[second] >= 1
                if enough and (_points(first) + _points(second)) % 10 == total:
                    self.left.subtract((first, second))
                    return [first, second]
        raise ValueError(f"the shoe has no two cards left scoring any of {totals}")

    def round(self, winner: str) -> dict[str, list[str]]:
        """The cards of a round ``winner`` wins with a natural, as the API takes them."""
        if winner not in ("B", "P", "T"):
            raise ValueError(f"winner is B, P or T, not {winner!r}")
        natural = self._hand((9, 8))
        if winner == "T":
            return {"player": natural, "banker": self._hand(((_points(natural[0]) + _points(natural[1])) % 10,))}
        loser = self._hand((0, 1, 2, 3, 4, 5, 6, 7))  # below either natural: nobody draws
        return {"banker": natural, "player": loser} if winner == "B" else {"player": natural, "banker": loser}


def streaks(lengths: list[int], rounds: int) -> str:
    """Winners of a long-streak shoe: Banker and Player in turn, each for the next of
    ``lengths``, ``rounds`` of them."""
    winners = ""
    for i, length in enumerate(itertools.cycle(lengths)):
        winners += "BP"[i % 2] * length
        if len(winners) >= rounds:
            return winners[:rounds]
    raise AssertionError("unreachable")


# 72 rounds of singles and two dragons: a Big Road of 44 columns, more than a screen's 30.
LONG_STREAKS = streaks([1] * 10 + [9] + [1] * 8 + [7], 72)
