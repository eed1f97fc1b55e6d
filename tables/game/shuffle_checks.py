"""Shuffle quality: tests on the order of the cards dealt that flag a shoe not properly
shuffled.

- **Deck order** (:func:`deck_order_finding`): neighbours in new-deck order, a card
  followed by the next or previous rank of its suit. New decks come in suit runs
  (ascending for some suits, descending for others), and a weak shuffle keeps many of
  those neighbours together: too many of them, or a run of them, is the alarm.
- **Repeats** (:func:`card_repeats_finding`): a card of the previous card's rank, or
  suit, more often than a fair shoe's exact expectation (one-sided).
- **A stacked shoe** (:func:`in_shoe_finding`): a stretch of cards dealt again later in
  the same shoe, as when every deck was put in one order, or the second half of the shoe
  repeats the first.
- **Repeated stretches** (:func:`card_stretches`, :func:`result_stretches`,
  :func:`repeated_finding`): fingerprints of every stretch of consecutive cards (and
  of round results) for the shell to index, and the finding from the hits it found.

On a shuffled shoe any two adjacent cards are a uniformly random ordered pair of the
shoe's cards, so each count is a sum of events of an exact chance; the tail is a
binomial's (the overlapping pairs' covariance is about zero for these events).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .alarms import AlarmKind, Finding, Severity
from .cards import RANKS, Card
from .seen import ShoeSeen, StretchMatch, card_index
from .tails import binomial_critical, binomial_sf
from .thresholds import Thresholds

# Stretch lengths. Two fair shoes hold the same card at two given places with chance
# 1/52; a casino's million 8-deck shoes hold ~3.6e8 stretches, ~6.5e16 pairs of them.
# Two hits in line (k + 1 cards) must match to raise: (1/52)^13 x 6.5e16 = 3e-6 random
# alarms in the whole history.
CARD_STRETCH = 12
CARD_MATCH = 1 / 52  # chance that a card matches another shoe's at a given place
# A round's result (winner and both scores) matches another's with chance 0.0117:
# 11 rounds in line give 0.0117^11 x 6.5e16 = 4e-5 random alarms in the whole history.
RESULT_MATCH = 0.0117
RESULT_STRETCH = 10
MAX_EVIDENCE = 40  # cards or rounds listed in evidence; the counts say how many in all

_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}


def is_deck_neighbour(first: Card, second: Card) -> bool:
    """Whether ``second`` follows ``first`` as in a new deck: same suit, the next or the
    previous rank (A-2 ... Q-K, no wrap)."""
    return first.suit is second.suit and abs(_RANK_INDEX[first.rank] - _RANK_INDEX[second.rank]) == 1


@lru_cache(maxsize=16)
def neighbour_chance(decks: int) -> float:
    """The chance that two adjacent cards of a shuffled shoe of ``decks`` are deck
    neighbours: a suit has 24 ordered pairs of neighbouring ranks, so the shoe has
    4 x 24 x d^2 ordered pairs of neighbours among its 52d (52d - 1)."""
    size = 52 * decks
    return 96 * decks * decks / (size * (size - 1))


def repeat_chances(decks: int) -> tuple[float, float]:
    """The chances that a card repeats the previous card's rank, and its suit, on a
    shuffled shoe of ``decks``: (4d - 1) / (52d - 1) and (13d - 1) / (52d - 1)."""
    size = 52 * decks
    return (4 * decks - 1) / (size - 1), (13 * decks - 1) / (size - 1)


def longest_run_chance(run: int, pairs: int, chance: float) -> float:
    """An upper bound on the chance that ``run`` adjacent pairs in a row are all events of
    ``chance`` somewhere among ``pairs`` adjacent pairs: one term per place it could start."""
    if run <= 0:
        return 1.0
    return min(1.0, max(0, pairs - run + 1) * chance**run)


@dataclass(frozen=True, slots=True)
class DeckOrder:
    """The deck-order figures of a sequence of cards: the adjacent pairs that are deck
    neighbours, and the longest run of them (its first card's index and length in pairs)."""

    pairs: int
    neighbours: tuple[int, ...]  # index of each neighbour pair's first card
    run_start: int
    run_length: int


def deck_order(cards: Sequence[Card]) -> DeckOrder:
    """Count the deck neighbours among ``cards`` in order, and find their longest run."""
    return deck_order_of_indexes([card_index(card) for card in cards])


def deck_order_of_indexes(indexes: Sequence[int]) -> DeckOrder:
    """:func:`deck_order` of cards given as their indexes (suit x 13 + rank): neighbours
    are one apart and of one suit."""
    neighbours: list[int] = []
    best_start = best_length = start = length = 0
    for i in range(len(indexes) - 1):
        a, b = indexes[i], indexes[i + 1]
        if (a - b == 1 or b - a == 1) and a // 13 == b // 13:
            neighbours.append(i)
            if length == 0:
                start = i
            length += 1
            if length > best_length:
                best_start, best_length = start, length
        else:
            length = 0
    return DeckOrder(max(0, len(indexes) - 1), tuple(neighbours), best_start, best_length)


def _rounds_of(shoe: ShoeSeen, indexes: Sequence[int]) -> list[int]:
    rounds = shoe.card_rounds
    return sorted({rounds[i] for i in indexes})[:MAX_EVIDENCE]


def deck_order_finding(shoe: ShoeSeen, thresholds: Thresholds) -> Finding | None:
    """DECK_ORDER: too many deck neighbours among the cards dealt (binomial tail), or too
    long a run of them; the lower p-value of the two, doubled for looking twice."""
    cards = shoe.cards
    order = deck_order_of_indexes(shoe.indexes)
    if order.pairs == 0:
        return None
    chance = neighbour_chance(shoe.decks)
    # p < threshold exactly when one of the two tails is under half of it.
    level = thresholds.deck_order / 2
    run_p = longest_run_chance(order.run_length, order.pairs, chance)
    if run_p >= level and len(order.neighbours) < binomial_critical(order.pairs, chance, level):
        return None
    count_p = binomial_sf(len(order.neighbours), order.pairs, chance)
    p_value = min(1.0, 2 * min(count_p, run_p))
    severity = thresholds.severity(p_value, thresholds.deck_order)
    if severity is None:
        return None
    if run_p <= count_p:
        test, statistic = "deck_order_run", order.run_length + 1
        indexes = list(range(order.run_start, order.run_start + order.run_length + 1))
    else:
        test, statistic = "deck_order_count", len(order.neighbours)
        indexes = sorted({j for i in order.neighbours for j in (i, i + 1)})
    return Finding(
        AlarmKind.DECK_ORDER,
        severity,
        shoe.key(AlarmKind.DECK_ORDER, severity),
        shoe.round_number,
        {
            "test": test,
            "statistic": statistic,
            "p_value": p_value,
            "neighbours": len(order.neighbours),
            "expected": order.pairs * chance,
            "longest_run": order.run_length + 1,  # cards in new-deck order in a row
            "rounds": _rounds_of(shoe, indexes),
            "cards": [cards[i].code for i in indexes[:MAX_EVIDENCE]],
        },
    )


def card_repeats_finding(shoe: ShoeSeen, thresholds: Thresholds) -> Finding | None:
    """CARD_REPEATS: cards repeating the previous card's rank, or suit, more often than a
    shuffled shoe's exact expectation (binomial tails, the lower doubled)."""
    cards = shoe.cards
    pairs = len(cards) - 1
    if pairs <= 0:
        return None
    rank_chance, suit_chance = repeat_chances(shoe.decks)
    indexes = shoe.indexes
    ranks = [i for i in range(pairs) if indexes[i] % 13 == indexes[i + 1] % 13]
    suits = sum(indexes[i] // 13 == indexes[i + 1] // 13 for i in range(pairs))
    level = thresholds.repeats / 2
    if len(ranks) < binomial_critical(pairs, rank_chance, level) and suits < binomial_critical(
        pairs, suit_chance, level
    ):
        return None
    rank_p = binomial_sf(len(ranks), pairs, rank_chance)
    suit_p = binomial_sf(suits, pairs, suit_chance)
    p_value = min(1.0, 2 * min(rank_p, suit_p))
    severity = thresholds.severity(p_value, thresholds.repeats)
    if severity is None:
        return None
    rank_wins = rank_p <= suit_p
    listed = sorted({j for i in ranks for j in (i, i + 1)}) if rank_wins else list(range(len(cards)))
    return Finding(
        AlarmKind.CARD_REPEATS,
        severity,
        shoe.key(AlarmKind.CARD_REPEATS, severity),
        shoe.round_number,
        {
            "test": "rank_repeats" if rank_wins else "suit_repeats",
            "statistic": len(ranks) if rank_wins else suits,
            "p_value": p_value,
            "rank_repeats": len(ranks),
            "rank_repeats_expected": pairs * rank_chance,
            "suit_repeats": suits,
            "suit_repeats_expected": pairs * suit_chance,
            "rounds": _rounds_of(shoe, listed),
            "cards": [cards[i].code for i in listed[:MAX_EVIDENCE]],
        },
    )


# ------------------------------------------------------------------ fingerprints


@dataclass(frozen=True, slots=True)
class Stretch:
    """A stretch of consecutive cards (or round results) of a shoe: where it starts, and
    its fingerprint, a signed 64-bit integer (a database ``bigint``)."""

    position: int
    fingerprint: int


def fingerprint(text: str, *, person: bytes) -> int:
    """A stable signed 64-bit fingerprint of ``text`` (BLAKE2b, 8 bytes); ``person``
    keeps cards' and results' fingerprints apart."""
    digest = hashlib.blake2b(text.encode("ascii"), digest_size=8, person=person).digest()
    return int.from_bytes(digest, "big", signed=True)


def _stretches(items: Sequence[str], first: int, length: int, person: bytes) -> list[Stretch]:
    """Stretches of ``items`` (the sequence from position ``first`` on)."""
    return [
        Stretch(first + p, fingerprint("".join(items[p : p + length]), person=person))
        for p in range(len(items) - length + 1)
    ]


def card_stretches(cards: Sequence[Card], *, since: int = 0, length: int = CARD_STRETCH) -> list[Stretch]:
    """The fingerprint of every stretch of ``length`` consecutive cards, by its first
    card's position; with ``since``, only the stretches that end at or after card
    ``since`` (those a round's new cards completed: the shell stores and looks up these)."""
    first = max(0, since - length + 1)
    return _stretches([card.code for card in cards[first:]], first, length, b"cards")


def result_stretches(results: Sequence[str], *, since: int = 0, length: int = RESULT_STRETCH) -> list[Stretch]:
    """The fingerprint of every stretch of ``length`` consecutive round results
    (:attr:`RoundSeen.result`), by its first round's index in the shoe, as
    :func:`card_stretches`."""
    first = max(0, since - length + 1)
    return _stretches(results[first:], first, length, b"results")


def shoe_card_stretches(shoe: ShoeSeen, *, since: int = 0) -> list[Stretch]:
    """:func:`card_stretches` of the shoe's dealt cards."""
    return card_stretches(shoe.cards, since=since)


def shoe_result_stretches(shoe: ShoeSeen, *, since: int = 0) -> list[Stretch]:
    """:func:`result_stretches` of the shoe's rounds (``since`` counts rounds)."""
    first = max(0, since - RESULT_STRETCH + 1)
    return [
        Stretch(first + s.position, s.fingerprint)
        for s in result_stretches([r.result for r in shoe.rounds[first:]], since=0)
    ]


@dataclass(frozen=True, slots=True)
class Alignment:
    """Hits from one earlier shoe that line up: the same shift between here and there."""

    earlier_shoe: str
    shift: int  # position here minus position there
    positions: tuple[int, ...]  # hits' positions here, in order


def best_alignment(matches: Sequence[StretchMatch]) -> Alignment | None:
    """The earlier shoe and shift with the most hits (the first in key order on a draw)."""
    groups: defaultdict[tuple[str, int], set[int]] = defaultdict(set)
    for m in matches:
        groups[(m.earlier_shoe, m.position - m.earlier_position)].add(m.position)
    if not groups:
        return None
    (shoe, shift), positions = max(sorted(groups.items()), key=lambda item: len(item[1]))
    return Alignment(shoe, shift, tuple(sorted(positions)))


def repeated_finding(shoe: ShoeSeen, kind: AlarmKind, thresholds: Thresholds) -> Finding | None:
    """REPEATED_CARDS (from ``shoe.card_matches``) or REPEATED_RESULTS (from
    ``shoe.result_matches``): at least :attr:`Thresholds.stretch_hits` hits from one
    earlier shoe in line. Evidence: the earlier shoe, the shift, the rounds here and the
    cards (or results) repeated. Repeated cards are critical; results, a warning."""
    cards_kind = kind is AlarmKind.REPEATED_CARDS
    alignment = best_alignment(shoe.card_matches if cards_kind else shoe.result_matches)
    if alignment is None or len(alignment.positions) < thresholds.stretch_hits:
        return None
    length = CARD_STRETCH if cards_kind else RESULT_STRETCH
    # The stretch repeated: from the first hit to the end of the last (hits may have gaps).
    indexes = range(alignment.positions[0], alignment.positions[-1] + length)
    cards: list[str] = []
    if cards_kind:
        items = [shoe.cards[i].code for i in indexes if i < len(shoe.cards)]
        rounds = sorted({shoe.card_rounds[i] for i in indexes if i < len(shoe.cards)})
        chance = CARD_MATCH ** len(items)
    else:
        seen = [shoe.rounds[i] for i in indexes if i < len(shoe.rounds)]
        items, rounds = [r.result for r in seen], [r.number for r in seen]
        chance = RESULT_MATCH ** len(items)
        cards = [card.code for r in seen for card in r.cards]
    severity = Severity.CRITICAL if cards_kind else Severity.WARNING
    return Finding(
        kind,
        severity,
        shoe.key(kind, alignment.earlier_shoe),
        shoe.round_number,
        {
            "test": "card_stretches" if cards_kind else "result_stretches",
            "statistic": len(items),  # cards (or rounds) repeated in order
            "p_value": chance,  # of such a match between two given places of two fair shoes
            "earlier_shoe": alignment.earlier_shoe,
            "shift": alignment.shift,
            "hits": len(alignment.positions),
            "positions": list(alignment.positions[:MAX_EVIDENCE]),
            "rounds": rounds[:MAX_EVIDENCE],
            "cards": (items if cards_kind else cards)[:MAX_EVIDENCE],
            **({} if cards_kind else {"results": items[:MAX_EVIDENCE]}),
        },
    )


IN_SHOE_WINDOW = 6  # cards a window: a repeat is looked for from this many cards in line


def self_match_chance(decks: int) -> float:
    """The chance that two given places of a shuffled shoe of ``decks`` hold the same card
    (rank and suit): the other place holds one of its ``decks - 1`` copies among the
    ``52 decks - 1`` other cards."""
    return (decks - 1) / (52 * decks - 1)


@dataclass(frozen=True)
class InShoeRepeat:
    """The longest stretch of cards dealt again later in the shoe: ``length`` cards from
    ``earlier`` dealt again from ``later``."""

    length: int
    later: int
    earlier: int


def longest_in_shoe_repeat(indexes: Sequence[int], window: int = IN_SHOE_WINDOW) -> InShoeRepeat | None:
    """The longest stretch of at least ``window`` cards (by index) that an earlier part of
    the same sequence holds in the same order; the first found on a draw. Each window is
    looked up once, and a match is extended as far as it goes."""
    first_at: dict[tuple[int, ...], int] = {}
    best: InShoeRepeat | None = None
    size = len(indexes)
    for later in range(size - window + 1):
        key = tuple(indexes[later : later + window])
        earlier = first_at.setdefault(key, later)
        if earlier == later or (
            best is not None and later < best.later + best.length and later - earlier == best.later - best.earlier
        ):
            continue  # the window's first time, or inside the repeat already found
        length = window
        while later + length < size and indexes[earlier + length] == indexes[later + length]:
            length += 1
        if best is None or length > best.length:
            best = InShoeRepeat(length, later, earlier)
    return best


def in_shoe_finding(shoe: ShoeSeen, thresholds: Thresholds) -> Finding | None:
    """REPEATED_IN_SHOE: a stretch of cards dealt again later in the same shoe, too long
    for a shuffled one. Two places hold the same card with chance
    :func:`self_match_chance`; of the n cards dealt, (n - L + 1)(n - L) / 2 pairs of
    stretches of L cards could match, so the chance of any L-card repeat is at most that
    many times the chance^L (a union bound). A shoe whose decks each came in one order
    repeats 52 cards a deck; a shoe whose second half repeats its first, all of it."""
    found = longest_in_shoe_repeat(shoe.indexes)
    if found is None:
        return None
    n, length = len(shoe.indexes), found.length
    pairs = (n - length + 1) * (n - length) / 2
    p_value = min(1.0, pairs * self_match_chance(shoe.decks) ** length)
    severity = thresholds.severity(p_value, thresholds.in_shoe)
    if severity is None:
        return None
    indexes = range(found.later, found.later + length)
    return Finding(
        AlarmKind.REPEATED_IN_SHOE,
        severity,
        shoe.key(AlarmKind.REPEATED_IN_SHOE, severity),
        shoe.round_number,
        {
            "test": "in_shoe_stretch",
            "statistic": length,
            "p_value": p_value,
            "shift": found.later - found.earlier,
            "rounds": sorted({shoe.card_rounds[i] for i in indexes}),
            "cards": [shoe.cards[i].code for i in list(indexes)[:MAX_EVIDENCE]],
        },
    )
