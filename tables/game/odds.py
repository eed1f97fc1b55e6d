"""Exact odds of every bet for any shoe composition, by combinatorial enumeration.

Counting follows the published 8-deck return tables (seeds 000/002): every round is an
ordered draw of six cards, so a round that uses four or five cards still counts every
way the unused positions could be filled, and a full 8-deck shoe totals
416x415x414x413x412x411 = 4,998,398,275,503,360 deals. Player and Banker Pair count
two-card combinations (the seeds' 6,448 of 86,320); Any Pair and Perfect Pair count
ordered draws of the four first cards. No sampling: every figure is an exact integer
and every return an exact fraction.

The main game depends on card values only, so it is enumerated over the ten values
with their counts: the player's and the banker's first two cards as unordered pairs
(55 x 55 cases, each standing for its orderings), then the third cards the rules
demand. Pairs depend on ranks and suits, and are counted from those directly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from .bets import BetType, Paytable
from .cards import ALL_CARDS, RANKS, Card
from .outcome import Winner
from .rules import BANKER_DRAWS_ON

DEAL = 6  # cards in the counting convention's ordered draw


def falling(n: int, k: int) -> int:
    """n(n-1)...(n-k+1): ordered draws of k cards from n."""
    result = 1
    for i in range(k):
        result *= n - i
    return result


class CompositionError(ValueError):
    """A shoe composition that cannot be: unknown cards, or more removed than held."""


@dataclass(frozen=True)
class Composition:
    """How many of each card a shoe holds."""

    counts: Mapping[Card, int]

    @classmethod
    def full(cls, decks: int = 8) -> Composition:
        """Every card of ``decks`` decks."""
        if decks < 1:
            raise CompositionError("a shoe needs at least one deck")
        return cls(dict.fromkeys(ALL_CARDS, decks))

    @classmethod
    def opening(cls, decks: int, burn_card: Card | None = None) -> Composition:
        """A shoe before its first round: every card of its decks but the burn card, which
        the dealer turned over for all to see. The cards burned face down stay unknown,
        so they stay in: odds from it are exact for what the table has shown."""
        full = cls.full(decks)
        return full.without([burn_card]) if burn_card is not None else full

    def without(self, cards: Iterable[Card]) -> Composition:
        """This shoe after ``cards`` were dealt; removing a card it no longer holds is an error."""
        counts = dict(self.counts)
        for card, removed in Counter(cards).items():
            held = counts.get(card, 0)
            if removed > held:
                raise CompositionError(f"{card.code}: cannot remove {removed}, the shoe holds {held}")
            counts[card] = held - removed
        return Composition(counts)

    @cached_property
    def size(self) -> int:
        """How many cards the shoe holds."""
        return sum(self.counts.values())

    @cached_property
    def values(self) -> tuple[int, ...]:
        """Cards of each baccarat value 0-9."""
        per_value = [0] * 10
        for card, count in self.counts.items():
            per_value[card.value] += count
        return tuple(per_value)

    @cached_property
    def ranks(self) -> tuple[int, ...]:
        """How many cards of each rank the shoe holds, in the order of ``RANKS``."""
        per_rank = Counter[str]()
        for card, count in self.counts.items():
            per_rank[card.rank] += count
        return tuple(per_rank[rank] for rank in RANKS)


@dataclass(frozen=True, slots=True)
class Hands:
    """A class of rounds: the final scores and how many cards each side held."""

    player: int
    banker: int
    player_cards: int
    banker_cards: int

    @property
    def player_natural(self) -> bool:
        """Whether Player has a natural: 8 or 9 on its first two cards."""
        return self.player_cards == 2 and self.player >= 8

    @property
    def banker_natural(self) -> bool:
        """Whether Banker has a natural: 8 or 9 on its first two cards."""
        return self.banker_cards == 2 and self.banker >= 8

    @property
    def winner(self) -> Winner:
        """Who wins: the hand closer to nine, or a tie."""
        if self.player > self.banker:
            return Winner.PLAYER
        return Winner.BANKER if self.banker > self.player else Winner.TIE


def hands_counts(values: tuple[int, ...]) -> dict[Hands, int]:
    """Ordered six-card deals of each class of round, from the counts of each value."""
    c = list(values)
    size = sum(c)
    if size < DEAL:
        raise CompositionError(f"a shoe of {size} cards cannot deal a round: at least {DEAL} needed")
    # acc[player][banker][player cards - 2][banker cards - 2]: deals that use only the round's cards
    acc = [[[[0, 0], [0, 0]] for _ in range(10)] for _ in range(10)]
    pairs = [(a, b) for a in range(10) for b in range(a, 10)]
    for p1, p2 in pairs:
        wp = c[p1] * (c[p2] - (p1 == p2))
        if wp <= 0:
            continue
        wp *= 1 if p1 == p2 else 2
        c[p1] -= 1
        c[p2] -= 1
        pt = (p1 + p2) % 10
        for b1, b2 in pairs:
            w = c[b1] * (c[b2] - (b1 == b2))
            if w <= 0:
                continue
            w *= wp if b1 == b2 else 2 * wp
            bt = (b1 + b2) % 10
            if pt >= 8 or bt >= 8:
                acc[pt][bt][0][0] += w
                continue
            c[b1] -= 1
            c[b2] -= 1
            if pt <= 5:
                _player_draws(c, acc, w, pt, bt)
            elif bt <= 5:
                row = acc[pt]
                for b3 in range(10):
                    row[(bt + b3) % 10][0][1] += w * c[b3]
            else:
                acc[pt][bt][0][0] += w
            c[b1] += 1
            c[b2] += 1
        c[p1] += 1
        c[p2] += 1
    counts = {}
    for player in range(10):
        for banker in range(10):
            for extra_p in (0, 1):
                for extra_b in (0, 1):
                    used = 4 + extra_p + extra_b
                    count = acc[player][banker][extra_p][extra_b] * falling(size - used, DEAL - used)
                    if count:
                        counts[Hands(player, banker, 2 + extra_p, 2 + extra_b)] = count
    return counts


def _player_draws(c: list[int], acc: list[list[list[list[int]]]], w: int, pt: int, bt: int) -> None:
    draws_on = BANKER_DRAWS_ON[bt]
    for p3 in range(10):
        w5 = w * c[p3]
        if not w5:
            continue
        player = (pt + p3) % 10
        if p3 in draws_on:
            c[p3] -= 1
            row = acc[player]
            for b3 in range(10):
                row[(bt + b3) % 10][1][1] += w5 * c[b3]
            c[p3] += 1
        else:
            acc[player][bt][1][0] += w5


# ---------------------------------------------------------------------------- bets


@dataclass(frozen=True, slots=True)
class Event:
    """One row of a return table: what happens, what it pays per unit (-1 a loss,
    0 a push), and in how many of the bet's equally likely deals."""

    label: str
    pays: Fraction
    count: int


@dataclass(frozen=True)
class BetOdds:
    """One bet's return table: each way it settles, with how many deals of the shoe lead to it."""

    bet: BetType
    events: tuple[Event, ...]
    space: str  # what the counts count

    @property
    def total(self) -> int:
        """How many deals the table counts in all."""
        return sum(e.count for e in self.events)

    def probability(self, label: str) -> Fraction:
        """The exact probability of the events labelled ``label``."""
        return Fraction(sum(e.count for e in self.events if e.label == label), self.total)

    @property
    def expected_return(self) -> Fraction:
        """Net result per unit staked, on average: the house edge is its negative."""
        return Fraction(sum(e.pays * e.count for e in self.events), self.total)

    @property
    def rtp(self) -> Fraction:
        """Return to player: what comes back of each unit staked."""
        return 1 + self.expected_return


SIX_CARD_DEALS = "ordered six-card deals"
TWO_CARD_HANDS = "two-card combinations"
FOUR_CARD_DEALS = "ordered deals of the four first cards"
LOSS, PUSH = Fraction(-1), Fraction(0)
Rows = list[tuple[str, Fraction, Callable[[Hands], bool]]]


def _table(bet: BetType, rows: Rows, hands: Mapping[Hands, int]) -> BetOdds:
    """Each class of round goes to the first row it matches; unmatched ones lose."""
    counts = [0] * len(rows)
    lost = 0
    for h, count in hands.items():
        for i, (_, _, matches) in enumerate(rows):
            if matches(h):
                counts[i] += count
                break
        else:
            lost += count
    events = [Event(label, pays, n) for (label, pays, _), n in zip(rows, counts, strict=True)]
    if lost:
        events.append(Event("Loss", LOSS, lost))
    return BetOdds(bet, tuple(events), SIX_CARD_DEALS)


def _main_rows(t: Paytable, bet: BetType) -> Rows:
    banker_pays = {BetType.BANKER: t.banker, BetType.PLAYER: LOSS, BetType.TIE: LOSS}[bet]
    player_pays = {BetType.BANKER: LOSS, BetType.PLAYER: t.player, BetType.TIE: LOSS}[bet]
    tie_pays = t.tie if bet is BetType.TIE else PUSH
    rows: Rows = []
    if bet is BetType.BANKER and t.banker_six is not None:
        rows.append(("Banker wins with 6", t.banker_six, lambda h: h.winner is Winner.BANKER and h.banker == 6))
    rows += [
        ("Banker wins", banker_pays, lambda h: h.winner is Winner.BANKER),
        ("Player wins", player_pays, lambda h: h.winner is Winner.PLAYER),
        ("Tie", tie_pays, lambda h: h.winner is Winner.TIE),
    ]
    return rows


def _bonus_rows(t: Paytable, side: Winner) -> Rows:
    def natural(h: Hands) -> bool:
        return h.player_natural if side is Winner.PLAYER else h.banker_natural

    def win_by(margin: int) -> Callable[[Hands], bool]:
        return lambda h: h.winner is side and not natural(h) and abs(h.player - h.banker) == margin

    rows: Rows = [(f"Win by {m}", pays, win_by(m)) for m, pays in sorted(t.bonus_margins.items(), reverse=True)]
    rows.append(("Natural win", t.bonus_natural_win, lambda h: h.winner is side and natural(h)))
    rows.append(("Natural tie", PUSH, lambda h: h.winner is Winner.TIE and h.player_natural and h.banker_natural))
    return rows


def _side_rows(t: Paytable, bet: BetType) -> Rows:
    def banker_six(cards: int) -> Callable[[Hands], bool]:
        return lambda h: h.winner is Winner.BANKER and h.banker == 6 and h.banker_cards == cards

    return {
        BetType.PLAYER_NATURAL: [("Player natural", t.player_natural, lambda h: h.player_natural)],
        BetType.BANKER_NATURAL: [("Banker natural", t.banker_natural, lambda h: h.banker_natural)],
        BetType.LUCKY_SIX: [
            ("Banker wins with 6 on 2 cards", t.lucky_six_two_cards, banker_six(2)),
            ("Banker wins with 6 on 3 cards", t.lucky_six_three_cards, banker_six(3)),
        ],
        BetType.TWO_CARDS_LUCKY_SIX: [("Banker wins with 6 on 2 cards", t.two_cards_lucky_six, banker_six(2))],
        BetType.THREE_CARDS_LUCKY_SIX: [("Banker wins with 6 on 3 cards", t.three_cards_lucky_six, banker_six(3))],
    }[bet]


def _same_pair_counts(counts: Iterable[int]) -> tuple[int, int]:
    """Ordered draws of (one hand's two cards) and of (both hands' two cards) where
    each hand's cards match, for cards grouped by what must match (rank, or rank+suit)."""
    counts = [n for n in counts if n >= 2]
    one = sum(n * (n - 1) for n in counts)
    same_group = sum(n * (n - 1) * (n - 2) * (n - 3) for n in counts)
    both = one * one - sum((n * (n - 1)) ** 2 for n in counts) + same_group
    return one, both


def _pair_odds(bet: BetType, pays: Fraction, ranks: tuple[int, ...], size: int) -> BetOdds:
    hands = size * (size - 1) // 2
    pairs = sum(n * (n - 1) // 2 for n in ranks)
    return BetOdds(bet, (Event("Pair", pays, pairs), Event("No pair", LOSS, hands - pairs)), TWO_CARD_HANDS)


def _either_pair_odds(bet: BetType, once: Fraction, both_pays: Fraction, groups: Iterable[int], size: int) -> BetOdds:
    """Any Pair and Perfect Pair: a pair on either hand's first two cards."""
    one, both = _same_pair_counts(groups)
    deals = falling(size, 4)
    either = 2 * one * (size - 2) * (size - 3) - both  # inclusion-exclusion
    name = "Perfect pair" if bet is BetType.PERFECT_PAIR else "Pair"
    events = (
        Event(f"{name} on one hand", once, either - both),
        Event(f"{name}s on both hands", both_pays, both),
        Event("No pair", LOSS, deals - either),
    )
    return BetOdds(bet, events, FOUR_CARD_DEALS)


@dataclass(frozen=True)
class ShoeOdds:
    """Every bet's return table for one composition and paytable, and the No
    Commission banker bet beside it."""

    composition: Composition
    bets: Mapping[BetType, BetOdds]
    no_commission_banker: BetOdds


def shoe_odds(composition: Composition, paytable: Paytable | None = None) -> ShoeOdds:
    """Every bet's exact return table for the next round dealt from ``composition``, under
    ``paytable`` (the standard one by default): enumerated, no sampling."""
    t = paytable or Paytable.standard()
    hands = hands_counts(composition.values)
    bets: dict[BetType, BetOdds] = {}
    for bet in (BetType.BANKER, BetType.PLAYER, BetType.TIE):
        bets[bet] = _table(bet, _main_rows(t, bet), hands)
    bets[BetType.PLAYER_BONUS] = _table(BetType.PLAYER_BONUS, _bonus_rows(t, Winner.PLAYER), hands)
    bets[BetType.BANKER_BONUS] = _table(BetType.BANKER_BONUS, _bonus_rows(t, Winner.BANKER), hands)
    side = (
        BetType.PLAYER_NATURAL,
        BetType.BANKER_NATURAL,
        BetType.LUCKY_SIX,
        BetType.TWO_CARDS_LUCKY_SIX,
        BetType.THREE_CARDS_LUCKY_SIX,
    )
    for bet in side:
        bets[bet] = _table(bet, _side_rows(t, bet), hands)
    size = composition.size
    bets[BetType.PLAYER_PAIR] = _pair_odds(BetType.PLAYER_PAIR, t.player_pair, composition.ranks, size)
    bets[BetType.BANKER_PAIR] = _pair_odds(BetType.BANKER_PAIR, t.banker_pair, composition.ranks, size)
    bets[BetType.ANY_PAIR] = _either_pair_odds(BetType.ANY_PAIR, t.any_pair, t.any_pair, composition.ranks, size)
    perfect_both = t.perfect_pair if t.perfect_pair_both is None else t.perfect_pair_both
    bets[BetType.PERFECT_PAIR] = _either_pair_odds(
        BetType.PERFECT_PAIR, t.perfect_pair, perfect_both, composition.counts.values(), size
    )
    no_commission = _table(BetType.BANKER, _main_rows(Paytable.no_commission(), BetType.BANKER), hands)
    return ShoeOdds(composition, {bet: bets[bet] for bet in BetType}, no_commission)


def bet_odds_to_data(odds: BetOdds) -> dict[str, Any]:
    """JSON-ready form; counts stay exact integers, returns are also given exactly."""
    total = odds.total
    ret = odds.expected_return
    return {
        "space": odds.space,
        "total": total,
        "expected_return": float(ret),
        "exact_return": f"{ret.numerator}/{ret.denominator}",
        "rtp": float(odds.rtp),
        "events": [
            {"event": e.label, "pays": float(e.pays), "count": e.count, "probability": e.count / total}
            for e in odds.events
        ],
    }


def shoe_odds_to_data(odds: ShoeOdds) -> dict[str, Any]:
    """The odds as JSON-ready data: the cards left and every bet's return table."""
    return {
        "cards": odds.composition.size,
        "bets": {bet.value: bet_odds_to_data(o) for bet, o in odds.bets.items()},
        "no_commission_banker": bet_odds_to_data(odds.no_commission_banker),
    }
