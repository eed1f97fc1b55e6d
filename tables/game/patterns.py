"""Shoes whose rounds follow an outcome pattern: the hard shoes the screens are judged on
(80 Big Road columns, a dragon tail, ties from the start, pair after pair), dealt by the
game's own rules from one shoe's cards, so no card is dealt more often than the shoe
holds it and every round is one the rules allow.

A pattern is a string, one letter a round: ``P``, ``B`` or ``T`` a round that winner
wins; ``2`` a round with a Player or a Banker pair (whoever wins); ``.`` a round as the
shoe deals it."""

from __future__ import annotations

import random

from .cards import ALL_CARDS, Card
from .dealing import deal_round
from .outcome import RoundOutcome, Winner

# The hard shoes by name (``manage.py shoe_deal --shoe``, the browser tests, the gallery).
HARD_SHOES: dict[str, str] = {
    # 80 rounds, each the other side's: 80 Big Road columns, every derived road one tail.
    "choppy": "PB" * 40,
    # A 40-Banker dragon inside a shoe dealt as it comes (a Player round either side of it).
    "streak": "." * 19 + "P" + "B" * 40 + "P" + "." * 17,
    # Ties at the start, then a tie every third round.
    "tie-heavy": "TT" + "PBT" * 24,
    # A pair every second round: the bead plate and the Big Road full of pair dots.
    "pairs-heavy": ".2" * 38,
    # A shoe as a shuffle deals it, as long as most are.
    "normal": "." * 80,
}
LETTERS = frozenset("PBT2.")
TRIES = 20_000  # draws for one round of the pattern before the shoe is called unable to
DECKS = 8


def pattern_check(pattern: str) -> str:
    """``pattern`` if each letter is one :data:`LETTERS` knows and it has a round, else
    :class:`ValueError` naming the first wrong letter."""
    if not pattern:
        raise ValueError("a pattern has at least one round")
    for place, letter in enumerate(pattern, start=1):
        if letter not in LETTERS:
            raise ValueError(f"round {place}: {letter!r} is none of P, B, T, 2 and .")
    return pattern


def _wanted(letter: str, outcome: RoundOutcome) -> bool:
    if letter == ".":
        return True
    if letter == "2":
        return outcome.any_pair
    return outcome.winner is Winner(letter)


def _draw(letter: str, left: list[Card], rng: random.Random, dealt: int) -> RoundOutcome:
    """A round the letter asks for from the cards ``left`` (which keep their count)."""
    for _ in range(TRIES):
        if len(left) < 6:  # a round may take six cards
            break
        rng.shuffle(left)
        outcome = deal_round(iter(left).__next__)
        if _wanted(letter, outcome):
            return outcome
    raise ValueError(f"no round of {letter!r} left in the shoe after {dealt} rounds")


def deal_pattern(pattern: str, seed: int, *, decks: int = DECKS) -> list[RoundOutcome]:
    """A round for each letter of ``pattern``, each from the cards the shoe has left: drawn
    at random from them until the round is one the letter asks for (``seed``: a shoe of its
    own; two shoes of one seed deal the same cards). :class:`ValueError` when the cards
    left make no such round (a pattern longer than a shoe)."""
    rng = random.Random(seed)
    left: list[Card] = list(ALL_CARDS) * decks
    rounds: list[RoundOutcome] = []
    for letter in pattern_check(pattern):
        outcome = _draw(letter, left, rng, len(rounds))
        for card in (*outcome.player_cards, *outcome.banker_cards):
            left.remove(card)
        rounds.append(outcome)
    return rounds
