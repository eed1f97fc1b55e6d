"""Exact odds: the published 8-deck return tables (seeds 000/002/003), reproduced to the
integer, and any other shoe checked against a brute-force deal of every card order."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest

from tables.game.bets import BetType, Paytable, settle_bets
from tables.game.cards import Card
from tables.game.dealing import deal_from_sequence
from tables.game.odds import Composition, CompositionError, falling, shoe_odds

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer

FULL = shoe_odds(Composition.full(8))
TOTAL = 4_998_398_275_503_360


def counts(bet: BetType) -> dict[str, int]:
    return {e.label: e.count for e in FULL.bets[bet].events}


def rounded(value: Fraction, places: int = 6) -> float:
    return round(float(value), places)


def test_every_round_counts_as_an_ordered_draw_of_six_cards_4_998_398_275_503_360_in_all() -> None:
    assert falling(416, 6) == TOTAL
    for bet in (BetType.BANKER, BetType.PLAYER, BetType.TIE, BetType.PLAYER_BONUS, BetType.LUCKY_SIX):
        assert FULL.bets[bet].total == TOTAL


def test_banker_player_and_tie_wins_are_the_published_integers() -> None:
    assert counts(BetType.BANKER) == {
        "Banker wins": 2_292_252_566_437_888,
        "Player wins": 2_230_518_282_592_256,
        "Tie": 475_627_426_473_216,
    }


def test_the_banker_player_and_tie_returns_are_the_published_ones() -> None:
    assert rounded(FULL.bets[BetType.BANKER].expected_return) == -0.010579
    assert rounded(FULL.bets[BetType.PLAYER].expected_return) == -0.012351
    assert rounded(FULL.bets[BetType.TIE].expected_return) == -0.143596


def test_the_rtps_are_the_ones_seeds_002_and_003_print() -> None:
    rtp = {bet: round(float(FULL.bets[bet].rtp) * 100, 2) for bet in BetType}
    assert rtp[BetType.BANKER] == 98.94 and rtp[BetType.PLAYER] == 98.76
    assert rtp[BetType.TIE] == 85.64 and rtp[BetType.PLAYER_PAIR] == 89.64


def test_a_pair_is_6_448_of_86_320_two_card_combinations_returning_minus_0_103614() -> None:
    for bet in (BetType.PLAYER_PAIR, BetType.BANKER_PAIR):
        assert counts(bet) == {"Pair": 6_448, "No pair": 79_872}
        assert rounded(FULL.bets[bet].expected_return) == -0.103614


def test_every_row_of_the_player_bonus_table() -> None:
    # The published "Loss" row reads 3,460,101,558,850,300 and its "Totals" row
    # 4,998,398,275,503,350: the exact values cut to 15 significant digits.
    assert counts(BetType.PLAYER_BONUS) == {
        "Win by 9": 18_409_431_764_992,
        "Win by 8": 34_097_645_543_424,
        "Win by 7": 89_590_261_473_280,
        "Win by 6": 141_238_897_317_888,
        "Win by 5": 166_169_165_987_840,
        "Win by 4": 186_780_352_174_080,
        "Natural win": 812_685_054_124_032,
        "Natural tie": 89_325_908_267_520,
        "Loss": 3_460_101_558_850_304,
    }
    assert rounded(FULL.bets[BetType.PLAYER_BONUS].expected_return) == -0.026517


def test_every_row_of_the_banker_bonus_table() -> None:
    # Published "Loss": 3,495,551,656,153,850, the exact value cut to 15 digits.
    assert counts(BetType.BANKER_BONUS) == {
        "Win by 9": 15_390_342_909_952,
        "Win by 8": 28_305_092_784_128,
        "Win by 7": 79_517_099_278_336,
        "Win by 6": 119_200_072_366_080,
        "Win by 5": 157_275_882_332_160,
        "Win by 4": 201_147_167_287_296,
        "Natural win": 812_685_054_124_032,
        "Natural tie": 89_325_908_267_520,
        "Loss": 3_495_551_656_153_856,
    }
    assert rounded(FULL.bets[BetType.BANKER_BONUS].expected_return) == -0.093731


def test_no_commission_pays_a_banker_win_with_6_half_and_returns_minus_0_014581() -> None:
    banker = FULL.no_commission_banker
    assert {e.label: e.pays for e in banker.events}["Banker wins with 6"] == Fraction(1, 2)
    assert rounded(banker.expected_return) == -0.014581
    on_its_table = shoe_odds(Composition.full(8), Paytable.no_commission()).bets[BetType.BANKER]
    assert on_its_table.expected_return == banker.expected_return


def test_seed_004_perfect_pair_paying_200_when_both_hands_are_perfect_pairs_returns_more() -> None:
    seed_001 = FULL.bets[BetType.PERFECT_PAIR]
    seed_004 = shoe_odds(Composition.full(8), Paytable().updated({"perfect_pair_both": 200})).bets[BetType.PERFECT_PAIR]
    both = {e.label: e.count for e in seed_001.events}["Perfect pairs on both hands"]
    assert seed_004.expected_return - seed_001.expected_return == Fraction(both * 175, seed_001.total)


def test_lucky_six_at_20_to_1_on_three_cards_returns_more_than_at_12() -> None:
    twelve = Paytable().updated({"lucky_six_three_cards": 12})
    assert FULL.bets[BetType.LUCKY_SIX].expected_return > (
        shoe_odds(Composition.full(8), twelve).bets[BetType.LUCKY_SIX].expected_return
    )


# A small shoe, with repeated cards for pairs and perfect pairs, dealt in every order.
SMALL = [Card.parse(c) for c in ["AH", "AH", "AS", "5D", "5D", "KC", "9S", "3C", "6H"]]
PAYTABLES = {"seed 001": Paytable.standard(), "seed 004": Paytable().updated({"perfect_pair_both": 200})}


def brute_force_returns(cards: list[Card], paytable: Paytable) -> dict[BetType, Fraction]:
    """Deal every ordered draw of six physical cards by the rules and settle every bet."""
    totals: Counter[BetType] = Counter()
    deals = 0
    for order in permutations(cards, 6):
        deals += 1
        for bet, result in settle_bets(deal_from_sequence(order), paytable).items():
            totals[bet] += result.pays
    return {bet: Fraction(totals[bet], deals) for bet in BetType}


@pytest.mark.parametrize("name", PAYTABLES)
def test_a_depleted_shoe_agrees_with_dealing_every_order_of_its_cards(name: str) -> None:
    paytable = PAYTABLES[name]
    exact = shoe_odds(Composition(Counter(SMALL)), paytable)
    expected = brute_force_returns(SMALL, paytable)
    assert {bet: exact.bets[bet].expected_return for bet in BetType} == expected


def test_a_shoe_after_dealt_cards_is_the_full_shoe_without_them() -> None:
    dealt = [Card.parse(c) for c in ("AH", "5S", "KD", "KD")]
    after = Composition.full(8).without(dealt)
    assert after.size == 412 and after.counts[Card.parse("KD")] == 6
    assert shoe_odds(after).bets[BetType.BANKER].total == falling(412, 6)


def test_removing_more_copies_than_the_shoe_holds_is_an_error() -> None:
    with pytest.raises(CompositionError, match="AS: cannot remove 9, the shoe holds 8"):
        Composition.full(8).without([Card.parse("AS")] * 9)


def test_a_shoe_too_small_to_deal_a_round_is_an_error() -> None:
    with pytest.raises(CompositionError, match="cannot deal a round"):
        shoe_odds(Composition(Counter(SMALL[:5])))


def test_a_shoe_opens_without_the_burn_card_turned_over_for_all_to_see() -> None:
    nine = Card.parse("9H")
    opening = Composition.opening(8, nine)
    assert opening.size == 415 and opening.counts[nine] == 7
    assert Composition.opening(8) == Composition.full(8)  # no burn shown yet
