"""Card authentication rules (seed 001): plaintexts, their public hashes, a shoe's
commitment, and the burn."""

from __future__ import annotations

import hashlib

import pytest

from tables.game.authentication import (
    Burn,
    CommitmentError,
    PlaintextError,
    card_hash,
    dealing_order,
    new_plaintext,
    normal_hash,
    plaintext_card,
    plaintext_errors,
    shoe_commitment,
    validate_commitments,
)
from tables.game.cards import ALL_CARDS, Card
from tables.game.outcome import RoundOutcome

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer

SEED_SAMPLE = (
    "H-3-uee9JLvMAncG4J2FN8dG-13D0FF3A6155E3BAFE96C79DE5CAA6696FA577A668DA233CA062F1A6F215F56FB2AD5F82AB8193D"
    "45F56042DAA635D39078F04E8F6E92296D55B93590A23E4E2"
)
# Computed outside the project: `printf %s "$SEED_SAMPLE" | sha512sum` (and openssl dgst -sha512).
SEED_SAMPLE_HASH = (
    "4684afc4baf7753661e89971a5f780a90f7912ba6f37c1c092305a3ba7c58f74"
    "d74bd881e38fdf586f221d0d3724bc23fa075d578cf63e4b466a883167ffd969"
)
RANDOM = "abcdefghijklmnop"  # 16 characters: the least a plaintext may have


def test_the_seed_s_sample_plaintext_hashes_to_its_sha512_computed_independently() -> None:
    assert card_hash(SEED_SAMPLE) == SEED_SAMPLE_HASH
    assert card_hash(SEED_SAMPLE) == hashlib.sha512(SEED_SAMPLE.encode("utf-8")).hexdigest()


def test_the_seed_s_sample_names_the_three_of_hearts() -> None:
    assert plaintext_card(SEED_SAMPLE) == Card.parse("3H")


@pytest.mark.parametrize(
    ("plaintext", "card"),
    [
        (f"S-1-{RANDOM}", "AS"),
        (f"D-10-{RANDOM}", "TD"),
        (f"C-11-{RANDOM}", "JC"),
        (f"H-12-{RANDOM}", "QH"),
        (f"S-13-{RANDOM}", "KS"),
        (f"D-7--{RANDOM}-", "7D"),  # the random part may hold '-' anywhere
    ],
)
def test_points_1_to_13_name_ace_2_to_10_jack_queen_king(plaintext: str, card: str) -> None:
    assert plaintext_card(plaintext) == Card.parse(card)


@pytest.mark.parametrize(
    ("plaintext", "why"),
    [
        (f"X-3-{RANDOM}", "suit S, H, D or C"),
        (f"h-3-{RANDOM}", "suit S, H, D or C"),
        (f"H-0-{RANDOM}", "points 1-13"),
        (f"H-14-{RANDOM}", "points 1-13"),
        (f"H-03-{RANDOM}", "points 1-13"),
        (f"H-3-{RANDOM[:-1]}", "the random part has 15 characters, at least 16"),
        (f"H-3-{RANDOM}_", "random of letters, digits and '-'"),
        (f"H-3-{RANDOM} ", "random of letters, digits and '-'"),
        (f"H-3-{RANDOM}é", "random of letters, digits and '-'"),
        ("H-3-" + "a" * 253, "at most 256 characters"),
        (3, "a plaintext is a string"),
    ],
)
def test_a_malformed_plaintext_is_refused_saying_why(plaintext: object, why: str) -> None:
    with pytest.raises(PlaintextError, match=why):
        plaintext_card(plaintext)


def test_a_new_plaintext_names_its_card_and_has_a_long_random_part_each_time() -> None:
    for card in ALL_CARDS:
        plaintext = new_plaintext(card)
        assert plaintext_card(plaintext) == card
        assert len(plaintext.split("-", 2)[2]) >= 32
    assert new_plaintext(ALL_CARDS[0]) != new_plaintext(ALL_CARDS[0])


def test_hashes_are_read_in_either_case_and_kept_in_lower_case() -> None:
    assert normal_hash(SEED_SAMPLE_HASH.upper()) == SEED_SAMPLE_HASH
    assert normal_hash(SEED_SAMPLE_HASH[:-1]) is None
    assert normal_hash(SEED_SAMPLE_HASH[:-1] + "g") is None
    assert normal_hash(None) is None


def test_a_shoe_s_commitment_is_the_sha512_of_its_card_hashes_joined_with_no_separator() -> None:
    hashes = [card_hash(new_plaintext(card)) for card in ALL_CARDS]
    assert shoe_commitment(hashes) == hashlib.sha512("".join(hashes).encode()).hexdigest()
    assert shoe_commitment(hashes) != shoe_commitment(list(reversed(hashes)))


def hashes_of(count: int) -> list[str]:
    return [hashlib.sha512(str(i).encode()).hexdigest() for i in range(count)]


def test_a_shoe_of_n_decks_is_committed_by_52_n_hashes_in_lower_case() -> None:
    hashes = hashes_of(104)
    assert validate_commitments([h.upper() for h in hashes], decks=2) == tuple(hashes)


@pytest.mark.parametrize(
    ("change", "field", "why"),
    [
        (lambda h: h[:-1], "commitments", "expected 104 hashes, got 103"),
        (lambda h: [*h, h[0]], "commitments", "expected 104 hashes, got 105"),
        (lambda h: [*h[:17], "abc", *h[18:]], "commitments[17]", "128 hexadecimal characters"),
        (lambda h: [*h[:17], 17, *h[18:]], "commitments[17]", "128 hexadecimal characters"),
        (lambda h: [*h[:40], h[3].upper(), *h[41:]], "commitments[40]", "the same hash as commitments[3]"),
    ],
)
def test_a_wrong_count_a_malformed_or_a_duplicate_hash_is_refused_naming_the_first_bad_one(
    change, field: str, why: str
) -> None:
    with pytest.raises(CommitmentError) as refused:
        validate_commitments(change(hashes_of(104)), decks=2)
    assert refused.value.error.field == field
    assert why in refused.value.error.message


@pytest.mark.parametrize(
    ("card", "burned", "next_card"), [("AH", 1, 3), ("3H", 3, 5), ("9D", 9, 11), ("TC", 10, 12), ("KS", 10, 12)]
)
def test_card_1_is_turned_over_and_burns_its_baccarat_value_or_10_for_a_zero_card(
    card: str, burned: int, next_card: int
) -> None:
    burn = Burn.of(Card.parse(card))
    assert (burn.burned, burn.next_card) == (burned, next_card)
    assert list(burn.burned_numbers) == list(range(2, 2 + burned))


def outcome(player: str, banker: str) -> RoundOutcome:
    return RoundOutcome.of(tuple(map(Card.parse, player.split())), tuple(map(Card.parse, banker.split())))


def test_a_round_s_cards_leave_the_shoe_player_banker_player_banker_then_the_third_cards() -> None:
    order = dealing_order(outcome("AH 3S 5D", "JC 2H AD"))
    assert [(field, card.code) for field, card in order] == [
        ("player[0]", "AH"),
        ("banker[0]", "JC"),
        ("player[1]", "3S"),
        ("banker[1]", "2H"),
        ("player[2]", "5D"),
        ("banker[2]", "AD"),
    ]
    assert [field for field, _ in dealing_order(outcome("9H KS", "2C 4C 5C"))][-1] == "banker[2]"


def test_each_plaintext_must_name_the_card_reported_at_its_place() -> None:
    round_ = outcome("9H KS", "AH 7C")  # dealt 9H, AH, KS, 7C
    good = [new_plaintext(Card.parse(code)) for code in ("9H", "AH", "KS", "7C")]
    assert plaintext_errors(good, round_) == []
    swapped = [good[0], new_plaintext(Card.parse("3H")), good[2], good[3]]
    [problem] = plaintext_errors(swapped, round_)
    assert (problem.error.field, problem.error.message) == ("plaintexts[1]", "names 3H but banker[0] is AH")
    assert problem.index == 1
    assert problem.reviewer_reason == "does not name the card reported at banker[0]"  # no card named
    [problem] = plaintext_errors(good[:3], round_)
    assert problem.error.field == "plaintexts" and "expected 4 plaintexts" in problem.error.message
