"""Shuffle quality: new-deck order and repeats against a fair shoe's exact chances, and
fingerprints of stretches that find a shoe dealt again."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.game.alarms import AlarmKind, Severity
from tables.game.cards import ALL_CARDS, RANKS, Card, Suit
from tables.game.odds import Composition, hands_counts
from tables.game.seen import ShoeSeen, StretchMatch
from tables.game.shuffle_checks import (
    CARD_STRETCH,
    RESULT_MATCH,
    RESULT_STRETCH,
    InShoeRepeat,
    card_repeats_finding,
    card_stretches,
    deck_order,
    deck_order_finding,
    fingerprint,
    in_shoe_finding,
    is_deck_neighbour,
    longest_in_shoe_repeat,
    longest_run_chance,
    neighbour_chance,
    repeat_chances,
    repeated_finding,
    result_stretches,
    self_match_chance,
    shoe_result_stretches,
)
from tables.game.tails import binomial_sf
from tables.game.thresholds import DEFAULT_THRESHOLDS, Thresholds

from .shoes_seen import dealing, dealt, new_deck, shuffled

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer

cards = [Card.parse(code) for code in ["AS", "2S", "3S", "9H", "8H", "KD"]]


def test_deck_neighbours_are_the_next_or_previous_rank_of_the_suit() -> None:
    assert [is_deck_neighbour(a, b) for a, b in itertools.pairwise(cards)] == [True, True, False, True, False]
    assert not is_deck_neighbour(Card.parse("KS"), Card.parse("AS"))  # no wrap


def test_deck_order_counts_the_neighbours_and_finds_the_longest_run() -> None:
    order = deck_order(cards)
    assert (order.pairs, order.neighbours, order.run_start, order.run_length) == (5, (0, 1, 3), 0, 2)


def test_the_chances_are_the_share_of_ordered_pairs_of_one_deck() -> None:
    pairs = list(itertools.permutations(ALL_CARDS, 2))
    assert sum(is_deck_neighbour(a, b) for a, b in pairs) / len(pairs) == pytest.approx(neighbour_chance(1))
    same_rank = sum(a.rank == b.rank for a, b in pairs) / len(pairs)
    same_suit = sum(a.suit is b.suit for a, b in pairs) / len(pairs)
    assert repeat_chances(1) == pytest.approx((same_rank, same_suit))
    assert repeat_chances(1) == (3 / 51, 12 / 51)  # a 1-deck shoe dealt whole: 3 rank repeats expected


def test_a_shoe_in_new_deck_order_raises_deck_order_in_its_second_round() -> None:
    findings = [(s.round_number, deck_order_finding(s, DEFAULT_THRESHOLDS)) for s in dealing(new_deck() * 8)]
    first_round, finding = next((n, f) for n, f in findings if f is not None)
    assert first_round == 2
    assert finding.kind is AlarmKind.DECK_ORDER and finding.key == "shoe:1:deck_order:warning"
    assert finding.evidence["cards"] == ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]  # AS burns 2S
    assert finding.evidence["rounds"] == [1, 2]
    assert dealt(new_deck() * 8).rounds and findings[-1][1] is not None
    assert findings[-1][1].severity is Severity.CRITICAL


def test_one_deck_left_in_new_deck_order_is_first_named_by_its_run() -> None:
    order = shuffled(7, decks=7)
    order[100:100] = new_deck()
    first = next(f for s in dealing(order) if (f := deck_order_finding(s, DEFAULT_THRESHOLDS)) is not None)
    assert first.evidence["test"] == "deck_order_run"
    run = first.evidence["cards"]
    assert isinstance(run, list) and len(run) >= 9
    assert " ".join(run) in " ".join(card.code for card in new_deck())  # the block, in its order


def test_cards_sorted_by_rank_raise_card_repeats_and_not_deck_order() -> None:
    order = [Card(rank, suit) for rank in RANKS for _ in range(8) for suit in Suit]  # AS AH AD AC AS ...
    shoe = dealt(order)
    finding = card_repeats_finding(shoe, DEFAULT_THRESHOLDS)
    assert finding is not None and finding.evidence["test"] == "rank_repeats"
    assert finding.severity is Severity.CRITICAL
    assert deck_order_finding(shoe, DEFAULT_THRESHOLDS) is None


@pytest.mark.parametrize("seed", range(20))
def test_shuffled_shoes_raise_neither(seed: int) -> None:
    shoe = dealt(shuffled(seed))
    assert deck_order_finding(shoe, DEFAULT_THRESHOLDS) is None
    assert card_repeats_finding(shoe, DEFAULT_THRESHOLDS) is None


def test_a_stretch_fingerprint_is_stable_and_fits_a_signed_64_bit_column() -> None:
    stretches = card_stretches(new_deck())
    assert stretches[0].fingerprint == -8130975251108150548  # AS 2S ... QS, fixed forever: stored in the database
    assert len(stretches) == 52 - CARD_STRETCH + 1
    assert all(-(2**63) <= s.fingerprint < 2**63 for s in stretches)
    assert fingerprint("AS", person=b"cards") != fingerprint("AS", person=b"results")


def test_since_gives_the_stretches_a_round_completed() -> None:
    order = shuffled(1, decks=2)
    assert card_stretches(order, since=50) == [s for s in card_stretches(order) if s.position + CARD_STRETCH > 50]
    results = [f"B{i % 10}{(i + 3) % 10}" for i in range(30)]
    assert result_stretches(results, since=25) == [
        s for s in result_stretches(results) if s.position + RESULT_STRETCH > 25
    ]


def test_the_result_match_chance_is_the_exact_one_of_two_rounds_of_a_full_shoe() -> None:
    hands = hands_counts(Composition.full(8).values)
    total = sum(hands.values())
    scores: dict[tuple[int, int], int] = {}
    for hand, count in hands.items():
        scores[(hand.player, hand.banker)] = scores.get((hand.player, hand.banker), 0) + count
    assert sum((n / total) ** 2 for n in scores.values()) == pytest.approx(RESULT_MATCH, abs=5e-5)


def index_of(shoe: ShoeSeen) -> dict[int, int]:
    return {s.fingerprint: s.position for s in card_stretches(shoe.cards)}


def test_a_shoe_dealt_again_raises_repeated_cards_in_its_third_round() -> None:
    order = shuffled(3)
    earlier = index_of(dealt(order, key="earlier"))
    for shoe in dealing(order, key="again"):
        # The shell's look-up: every stretch of this shoe found in the earlier one's index.
        matches = tuple(
            StretchMatch("earlier", s.position, earlier[s.fingerprint])
            for s in card_stretches(shoe.cards)
            if s.fingerprint in earlier
        )
        seen = ShoeSeen("again", 8, shoe.rounds, card_matches=matches)
        finding = repeated_finding(seen, AlarmKind.REPEATED_CARDS, DEFAULT_THRESHOLDS)
        if finding is not None:
            break
    assert finding is not None and seen.round_number == 3
    assert finding.severity is Severity.CRITICAL and finding.key == "shoe:again:repeated_cards:earlier"
    assert finding.evidence["earlier_shoe"] == "earlier" and finding.evidence["shift"] == 0
    assert finding.evidence["cards"] == [card.code for card in seen.cards]  # every card so far repeats


def test_one_hit_or_hits_out_of_line_raise_nothing() -> None:
    shoe = dealt(shuffled(4))
    one = ShoeSeen("s", 8, shoe.rounds, card_matches=(StretchMatch("e", 10, 40),))
    apart = ShoeSeen("s", 8, shoe.rounds, card_matches=(StretchMatch("e", 10, 40), StretchMatch("e", 11, 90)))
    assert repeated_finding(one, AlarmKind.REPEATED_CARDS, DEFAULT_THRESHOLDS) is None
    assert repeated_finding(apart, AlarmKind.REPEATED_CARDS, DEFAULT_THRESHOLDS) is None


def test_rounds_repeating_an_earlier_shoes_results_raise_a_warning_naming_them() -> None:
    shoe = dealt(shuffled(5))
    stretches = shoe_result_stretches(shoe)
    matches = tuple(StretchMatch("old", s.position, s.position + 4) for s in stretches[:3])
    seen = ShoeSeen("s", 8, shoe.rounds, result_matches=matches)
    finding = repeated_finding(seen, AlarmKind.REPEATED_RESULTS, DEFAULT_THRESHOLDS)
    assert finding is not None and finding.severity is Severity.WARNING
    assert finding.evidence["rounds"] == list(range(1, RESULT_STRETCH + 3))
    assert finding.evidence["results"] == [r.result for r in shoe.rounds[: RESULT_STRETCH + 2]]
    assert finding.evidence["shift"] == -4


def test_fingerprints_of_shuffled_shoes_never_meet() -> None:
    seen: set[int] = set()
    for seed in range(50):
        stretches = {s.fingerprint for s in card_stretches(dealt(shuffled(seed, decks=8)).cards)}
        assert not stretches & seen
        seen |= stretches


@pytest.mark.parametrize("threshold", [0.5, 0.1, 1e-2, 1e-3])
def test_the_cached_critical_counts_decide_as_the_exact_p_values_would(threshold: float) -> None:
    # Shoes with some disorder, so that p-values land on both sides of the thresholds.
    decided: set[tuple[str, bool]] = set()
    for seed in range(10):
        order = shuffled(seed, decks=7)
        order[40 * seed : 40 * seed] = new_deck()[: 3 + seed]
        for shoe in list(dealing(order))[::7]:
            thresholds = Thresholds(deck_order=threshold, repeats=threshold, critical=0.0)
            order_figures = deck_order(shoe.cards)
            chance = neighbour_chance(8)
            exact = 2 * min(
                binomial_sf(len(order_figures.neighbours), order_figures.pairs, chance),
                longest_run_chance(order_figures.run_length, order_figures.pairs, chance),
            )
            assert (deck_order_finding(shoe, thresholds) is not None) == (exact < threshold)
            decided.add(("deck_order", exact < threshold))
            pairs = len(shoe.cards) - 1
            rank, suit = repeat_chances(8)
            rank_repeats = sum(a.rank == b.rank for a, b in itertools.pairwise(shoe.cards))
            suit_repeats = sum(a.suit is b.suit for a, b in itertools.pairwise(shoe.cards))
            exact = 2 * min(binomial_sf(rank_repeats, pairs, rank), binomial_sf(suit_repeats, pairs, suit))
            assert (card_repeats_finding(shoe, thresholds) is not None) == (exact < threshold)
            decided.add(("repeats", exact < threshold))
    assert {raised for name, raised in decided if name == "deck_order"} == {True, False}


@given(st.lists(st.sampled_from(ALL_CARDS), min_size=0, max_size=60), st.lists(st.integers(1, 6), max_size=20))
def test_stretches_stored_round_by_round_are_the_stretches_of_the_whole(cards: list[Card], rounds: list[int]) -> None:
    stored, dealt_so_far = [], 0
    for size in [*rounds, len(cards)]:
        upto = min(len(cards), dealt_so_far + size)
        stored += card_stretches(cards[:upto], since=dealt_so_far)
        dealt_so_far = upto
    assert stored == card_stretches(cards)


def stride_deck(stride: int) -> list[Card]:
    """One deck in a stacked order: every ``stride``-th card of a deck from the box."""
    deck = new_deck()
    return [deck[(i * stride) % 52] for i in range(52)]


@pytest.mark.parametrize("stride", [7, 17])
def test_every_deck_in_one_stacked_order_is_critical_within_the_first_two_decks(stride: int) -> None:
    """Issue 49, item 7: every deck in the same stride-17 order raised nothing in 60
    rounds (the whole shoe known after about 11), stride 7 only a warning."""
    order = stride_deck(stride) * 8
    first = next((s, f) for s in dealing(order) if (f := in_shoe_finding(s, DEFAULT_THRESHOLDS)) is not None)
    shoe, finding = first
    assert len(shoe.cards) <= 104  # within the first two decks dealt
    assert finding.kind is AlarmKind.REPEATED_IN_SHOE and finding.evidence["shift"] == 52
    critical = next(
        f for s in dealing(order) if (f := in_shoe_finding(s, DEFAULT_THRESHOLDS)) and f.severity is Severity.CRITICAL
    )
    assert critical.round_number <= 20


def test_a_shoe_whose_second_half_repeats_its_first_is_caught_early_in_its_second_half() -> None:
    half = shuffled(5, decks=4)
    order = half + half
    first = next((s, f) for s in dealing(order) if (f := in_shoe_finding(s, DEFAULT_THRESHOLDS)) is not None)
    shoe, finding = first
    assert finding.evidence["shift"] == 208
    assert len(shoe.cards) <= 208 - 4 + 20  # a few rounds into the repeat (the burn took the first cards)


@pytest.mark.parametrize("seed", range(40))
def test_shuffled_shoes_repeat_nothing_within_themselves(seed: int) -> None:
    assert all(in_shoe_finding(s, DEFAULT_THRESHOLDS) is None for s in dealing(shuffled(seed)))


def test_the_longest_repeat_in_a_shoe_is_found_with_its_shift() -> None:
    assert longest_in_shoe_repeat([1, 2, 3, 4, 5, 6, 7, 9, 1, 2, 3, 4, 5, 6, 7, 8]) == InShoeRepeat(7, 8, 0)
    assert longest_in_shoe_repeat([1, 2, 3, 4, 5, 9, 1, 2, 3, 4, 5]) is None  # under the window of 6
    assert self_match_chance(8) == 7 / 415
