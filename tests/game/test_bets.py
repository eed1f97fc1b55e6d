"""Seed 001's 14 bets and their payouts, one sentence at a time."""

from fractions import Fraction

import pytest

from tables.game.bets import BetStatus, BetType, Paytable, settle_bets
from tables.game.cards import Card
from tables.game.outcome import RoundOutcome

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer

STANDARD = Paytable.standard()


def outcome(player: str, banker: str) -> RoundOutcome:
    return RoundOutcome.of(tuple(map(Card.parse, player.split())), tuple(map(Card.parse, banker.split())))


def result(bet: BetType, player: str, banker: str, paytable: Paytable = STANDARD, round_number: int = 1):
    return settle_bets(outcome(player, banker), paytable, round_number=round_number)[bet]


def assert_win(bet: BetType, player: str, banker: str, pays: Fraction | int, paytable: Paytable = STANDARD) -> None:
    r = result(bet, player, banker, paytable)
    assert (r.status, r.pays) == (BetStatus.WIN, Fraction(pays))


def assert_lose(bet: BetType, player: str, banker: str, paytable: Paytable = STANDARD) -> None:
    r = result(bet, player, banker, paytable)
    assert (r.status, r.pays) == (BetStatus.LOSE, -1)


def assert_push(bet: BetType, player: str, banker: str) -> None:
    r = result(bet, player, banker)
    assert (r.status, r.pays) == (BetStatus.PUSH, 0)


PLAYER_WINS = ("AH 3S 5D", "JC 2H AD")  # 9 beats 3
BANKER_WINS = ("2H 3D", "9S KH")  # banker natural 9
TIE = ("4H 3D", "5S 2C")  # 7 - 7, both stand


def test_player_pays_1_to_1_and_pushes_on_a_tie() -> None:
    assert_win(BetType.PLAYER, *PLAYER_WINS, 1)
    assert_lose(BetType.PLAYER, *BANKER_WINS)
    assert_push(BetType.PLAYER, *TIE)


def test_banker_pays_0_95_to_1_and_pushes_on_a_tie() -> None:
    assert_win(BetType.BANKER, *BANKER_WINS, Fraction(19, 20))
    assert_lose(BetType.BANKER, *PLAYER_WINS)
    assert_push(BetType.BANKER, *TIE)


def test_tie_pays_8_to_1() -> None:
    assert_win(BetType.TIE, *TIE, 8)
    assert_lose(BetType.TIE, *PLAYER_WINS)


def test_no_commission_banker_pays_1_to_1_but_a_win_with_6_pays_half() -> None:
    no_commission = Paytable.no_commission()
    assert_win(BetType.BANKER, *BANKER_WINS, 1, no_commission)
    assert_win(BetType.BANKER, "TH 2D 2C", "3S 3C", Fraction(1, 2), no_commission)  # 6 over 4
    assert_lose(BetType.BANKER, "TH 7D", "3S 3C", no_commission)  # 6 under 7


def test_player_pair_and_banker_pair_pay_11_to_1_on_the_first_two_cards() -> None:
    assert_win(BetType.PLAYER_PAIR, "5H 5S 3D", "KS 2C 7H", 11)
    assert_lose(BetType.PLAYER_PAIR, "5H 9S 5D", "KS 2C 7H")  # the third card does not make a pair
    assert_win(BetType.BANKER_PAIR, "9H 9S", "QS QC", 11)
    assert_lose(BetType.BANKER_PAIR, "9H 9S", "QS KC")  # same value, different rank


def test_any_pair_pays_5_to_1_and_only_once_when_both_hands_pair() -> None:
    assert_win(BetType.ANY_PAIR, "9H 9S", "QS QC", 5)
    assert_win(BetType.ANY_PAIR, "9H 8S", "QS QC", 5)
    assert_lose(BetType.ANY_PAIR, *PLAYER_WINS)


def test_perfect_pair_pays_25_to_1_on_same_rank_and_suit_only_once() -> None:
    assert_win(BetType.PERFECT_PAIR, "9H 9H", "QS QS", 25)
    assert_win(BetType.PERFECT_PAIR, "9H 9S", "QS QS", 25)
    assert_lose(BetType.PERFECT_PAIR, "9H 9S", "QS QC")


def test_seed_004_pays_perfect_pair_200_to_1_when_both_hands_are_perfect_pairs() -> None:
    paytable = STANDARD.updated({"perfect_pair_both": 200})
    assert_win(BetType.PERFECT_PAIR, "9H 9H", "QS QS", 200, paytable)
    assert_win(BetType.PERFECT_PAIR, "9H 9H", "QS QC", 25, paytable)


def test_naturals_pay_7_to_2() -> None:
    assert_win(BetType.PLAYER_NATURAL, "TS 8H", "2C 3C", Fraction(7, 2))
    assert_lose(BetType.PLAYER_NATURAL, "AH 3S 5D", "JC 2H AD")  # 9 on three cards is no natural
    assert_win(BetType.BANKER_NATURAL, *BANKER_WINS, Fraction(7, 2))
    assert_win(BetType.BANKER_NATURAL, "TS 9H", "4C 4D", Fraction(7, 2))  # pays even when banker loses


@pytest.mark.parametrize(
    ("player", "banker", "pays"),
    [
        ("AH 3S 5D", "JC KH TD", 30),  # non-natural 9 over 0: margin 9
        ("AH 2S 5D", "JC KH TD", 10),  # 8 over 0
        ("AH 2S 4D", "JC KH TD", 6),  # 7 over 0
        ("AH 2S 3D", "JC KH TD", 4),  # 6 over 0
        ("AH 2S 2D", "JC KH TD", 2),  # 5 over 0
        ("AH 2S AD", "JC KH TD", 1),  # 4 over 0
        ("TS 8H", "2C 3C", 1),  # natural win pays 1 regardless of the margin
    ],
)
def test_player_bonus_pays_by_margin_on_a_non_natural_win_and_1_to_1_on_a_natural_win(
    player: str, banker: str, pays: int
) -> None:
    assert_win(BetType.PLAYER_BONUS, player, banker, pays)


def test_player_bonus_loses_a_win_by_3_or_less_pushes_a_natural_tie_and_loses_other_ties() -> None:
    assert_lose(BetType.PLAYER_BONUS, "3H 4S", "JC 6H")  # 7 over 6: margin 1
    assert_lose(BetType.PLAYER_BONUS, "3H 4S", "JC 2H 2D")  # 7 over 4: margin 3
    assert_push(BetType.PLAYER_BONUS, "TS 8H", "4C 4D")  # natural tie
    assert_lose(BetType.PLAYER_BONUS, *TIE)  # non-natural tie
    assert_lose(BetType.PLAYER_BONUS, *BANKER_WINS)


def test_banker_bonus_mirrors_player_bonus() -> None:
    assert_win(BetType.BANKER_BONUS, "JC KH TD", "AH AS 7D", 30)  # non-natural 9 over 0
    assert_win(BetType.BANKER_BONUS, *BANKER_WINS, 1)
    assert_push(BetType.BANKER_BONUS, "9S KH", "9C TD")
    assert_lose(BetType.BANKER_BONUS, *PLAYER_WINS)


def test_lucky_six_pays_12_to_1_with_two_cards_and_20_to_1_with_three() -> None:
    assert_win(BetType.LUCKY_SIX, "TH 2D 2C", "3S 3C", 12)
    assert_win(BetType.LUCKY_SIX, "TH 2D 2C", "KS 3C 3H", 20)
    assert_lose(BetType.LUCKY_SIX, "TH 7D", "3S 3C")  # banker 6 loses to 7


def test_two_and_three_cards_lucky_six_pay_22_and_50_to_1() -> None:
    assert_win(BetType.TWO_CARDS_LUCKY_SIX, "TH 2D 2C", "3S 3C", 22)
    assert_lose(BetType.TWO_CARDS_LUCKY_SIX, "TH 2D 2C", "KS 3C 3H")
    assert_win(BetType.THREE_CARDS_LUCKY_SIX, "TH 2D 2C", "KS 3C 3H", 50)
    assert_lose(BetType.THREE_CARDS_LUCKY_SIX, "TH 2D 2C", "3S 3C")


@pytest.mark.parametrize(
    ("bet", "limit"),
    [(BetType.PLAYER_PAIR, 60), (BetType.BANKER_PAIR, 60), (BetType.ANY_PAIR, 50), (BetType.PERFECT_PAIR, 50),
     (BetType.PLAYER_NATURAL, 50), (BetType.BANKER_NATURAL, 50), (BetType.LUCKY_SIX, 50),
     (BetType.TWO_CARDS_LUCKY_SIX, 50), (BetType.THREE_CARDS_LUCKY_SIX, 50)],
)  # fmt: skip
def test_a_bet_becomes_unavailable_after_its_max_round_limitation(bet: BetType, limit: int) -> None:
    assert result(bet, *PLAYER_WINS, round_number=limit).status is BetStatus.LOSE
    after = result(bet, *PLAYER_WINS, round_number=limit + 1)
    assert (after.status, after.pays) == (BetStatus.UNAVAILABLE, None)


@pytest.mark.parametrize(
    "bet", [BetType.PLAYER, BetType.BANKER, BetType.TIE, BetType.PLAYER_BONUS, BetType.BANKER_BONUS]
)
def test_main_bets_and_bonuses_have_no_round_limit(bet: BetType) -> None:
    assert result(bet, *PLAYER_WINS, round_number=500).status is not BetStatus.UNAVAILABLE


def test_every_round_settles_all_14_bets() -> None:
    assert len(settle_bets(outcome(*PLAYER_WINS), STANDARD)) == 14


def test_paytables_are_data_with_seed_001_alternatives() -> None:
    paytable = STANDARD.updated({"lucky_six_two_cards": "20:1", "round_limits": {"player_pair": 70}})
    assert paytable.lucky_six_two_cards == 20
    assert paytable.round_limit(BetType.PLAYER_PAIR) == 70
    assert STANDARD.updated(paytable.to_data()) == paytable
    with pytest.raises(ValueError, match="unknown paytable entry 'jackpot'"):
        STANDARD.updated({"jackpot": 100})
    with pytest.raises(ValueError, match="negative"):
        STANDARD.updated({"tie": -8})
