import re
import string

import pytest

from tables.game.cards import (
    ALL_CARDS,
    CODE_PATTERN,
    RANKS,
    Card,
    InvalidCardError,
    Suit,
    hand_score,
    pack_cards,
    unpack_cards,
)

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer


@pytest.mark.parametrize(
    ("code", "canonical"),
    [("AH", "AH"), ("TS", "TS"), ("10S", "TS"), ("10s", "TS"), ("kd", "KD"), ("9C", "9C"), ("qH", "QH")],
)
def test_card_codes_accept_10_and_t_in_any_case_and_print_t(code: str, canonical: str) -> None:
    assert Card.parse(code).code == canonical


@pytest.mark.parametrize("code", ["", "A", "1H", "11S", "ZZ", "AX", "TT", "AHH", 5, None, ["AH"]])
def test_unknown_card_codes_are_refused(code: object) -> None:
    with pytest.raises(InvalidCardError, match="unknown card"):
        Card.parse(code)


@pytest.mark.parametrize("code", ["9\u017f", "\u0430H", "\uff21H", " kd\n", " QH", "QH ", "K\u0000D"])
def test_card_codes_are_ascii_letters_exactly_with_nothing_around_them(code: str) -> None:
    """No letter that only upper-cases to a suit (U+017F, the long s, is "S" upper-cased),
    no look-alike, no spaces: a scanner sends the code and nothing else."""
    with pytest.raises(InvalidCardError, match="unknown card"):
        Card.parse(code)


def test_the_card_code_pattern_for_json_schema_matches_exactly_the_codes_parse_accepts() -> None:
    candidates = {a + b for a in string.printable for b in string.printable} | {"10" + s for s in "SsHhDdCcX"}
    accepted = set()
    for code in candidates:
        try:
            Card.parse(code)
        except InvalidCardError:
            continue
        accepted.add(code)
    assert {c for c in candidates if re.fullmatch(CODE_PATTERN, c)} == accepted


def test_a_deck_has_52_cards_of_13_ranks_and_4_suits() -> None:
    assert len(set(ALL_CARDS)) == 52
    assert {c.suit for c in ALL_CARDS} == set(Suit)


def test_a_card_code_in_packed_cards_is_found_only_where_that_card_is() -> None:
    # No rank letter is a suit letter, so a code never matches across two cards.
    assert not set(RANKS) & {suit.value for suit in Suit}
    packed = pack_cards([*ALL_CARDS, *reversed(ALL_CARDS), *ALL_CARDS[::3]])
    for card in ALL_CARDS:
        assert packed.count(card.code) == unpack_cards(packed).count(card)


@pytest.mark.parametrize(
    ("rank", "value"),
    [("A", 1), ("2", 2), ("5", 5), ("9", 9), ("T", 0), ("J", 0), ("Q", 0), ("K", 0)],
)
def test_ace_is_one_pips_are_face_value_tens_and_pictures_are_zero(rank: str, value: int) -> None:
    assert Card(rank, Suit.HEARTS).value == value


def cards(*codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)


@pytest.mark.parametrize(
    ("hand", "score"),
    [
        (("9S", "7H"), 6),  # seed 003: 9+7=16 counts 6
        (("5S", "5H", "5D"), 5),  # 5+5+5=15 counts 5
        (("TS", "9H"), 9),  # 10+9=19 is a natural 9
        (("KS", "AH", "5D"), 6),  # King+Ace+5=16 counts 6
        (("8C", "7D"), 5),  # seed 000: 8 and 7 total 15, score 5
        (("8S", "8H"), 6),  # seed 004: 8+8=16 counts 6
        (("JS", "7H"), 7),  # Jack+7=17 counts 7
    ],
)
def test_the_score_is_the_right_digit_of_the_total(hand: tuple[str, ...], score: int) -> None:
    assert hand_score(cards(*hand)) == score


def test_packed_cards_round_trip() -> None:
    hand = cards("AH", "10S", "kd")
    assert pack_cards(hand) == "AHTSKD"
    assert unpack_cards("AHTSKD") == hand


def test_labels_show_ten_and_suit_symbols() -> None:
    assert Card.parse("TS").label == "10♠"
    assert Card.parse("QH").suit.is_red
