"""The third-card rules, cell by cell from the seeds' chart."""

import pytest

from tables.game.cards import Card
from tables.game.dealing import deal_from_sequence
from tables.game.outcome import Winner
from tables.game.rules import banker_draws, player_draws
from tables.game.validation import IllegalRoundError, validate_round

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer

# Seed 000 "Baccarat Drawing Rules": rows are the banker's score, columns the
# player's third card; H hits, S stands.
BANKER_CHART = """
    0 1 2 3 4 5 6 7 8 9
7   S S S S S S S S S S
6   S S S S S S H H S S
5   S S S S H H H H S S
4   S S H H H H H H S S
3   H H H H H H H H S H
2   H H H H H H H H H H
1   H H H H H H H H H H
0   H H H H H H H H H H
"""


def chart_cells() -> list[tuple[int, int, bool]]:
    lines = BANKER_CHART.strip().splitlines()
    columns = [int(c) for c in lines[0].split()]
    cells = []
    for line in lines[1:]:
        row, *marks = line.split()
        cells.extend((int(row), column, mark == "H") for column, mark in zip(columns, marks, strict=True))
    return cells


# A two-card hand for every score, and a card of every value.
TWO_CARDS = {score: "TA23456789"[score] for score in range(10)}
VALUE_CARD = {0: "KC", 1: "AC", 2: "2C", 3: "3C", 4: "4C", 5: "5C", 6: "6C", 7: "7C", 8: "8C", 9: "9C"}


@pytest.mark.parametrize(("banker_score", "player_third", "hits"), chart_cells())
def test_every_cell_of_the_banker_chart(banker_score: int, player_third: int, hits: bool) -> None:
    assert banker_draws(3, banker_score, player_third) is hits
    # The validator applies the same cell to reported cards: player 2+J=2 draws.
    player = ["2D", "JD", VALUE_CARD[player_third]]
    banker = [f"{TWO_CARDS[banker_score]}S", "QS"]
    if hits:
        validate_round(player, [*banker, "5H"])
        with pytest.raises(IllegalRoundError, match=f"banker must draw on {banker_score}"):
            validate_round(player, banker)
    else:
        validate_round(player, banker)
        with pytest.raises(IllegalRoundError, match=f"banker must stand on {banker_score}"):
            validate_round(player, [*banker, "5H"])


@pytest.mark.parametrize("player_score", range(6))
def test_player_draws_on_0_to_5(player_score: int) -> None:
    assert player_draws(player_score, 4)


@pytest.mark.parametrize("player_score", [6, 7])
def test_player_stands_on_6_and_7(player_score: int) -> None:
    assert not player_draws(player_score, 4)


@pytest.mark.parametrize(("player_score", "banker_score"), [(8, 0), (9, 3), (0, 8), (5, 9), (8, 9)])
def test_a_natural_on_either_side_makes_both_stand(player_score: int, banker_score: int) -> None:
    assert not player_draws(player_score, banker_score)
    assert not banker_draws(player_score, banker_score, None)


@pytest.mark.parametrize(("banker_score", "hits"), [(0, True), (3, True), (5, True), (6, False), (7, False)])
def test_when_the_player_stands_the_banker_hits_on_5_or_less(banker_score: int, hits: bool) -> None:
    assert banker_draws(6, banker_score, None) is hits


def deal(*codes: str):
    return deal_from_sequence(Card.parse(c) for c in codes)


def test_seed_example_player_a35_scores_9_and_beats_banker_j2a_scoring_3() -> None:
    # Dealing order P, B, P, B, P3, B3: player A,3 then 5; banker J,2 then A.
    outcome = deal("AH", "JC", "3S", "2H", "5D", "AD")
    assert [c.code for c in outcome.player_cards] == ["AH", "3S", "5D"]
    assert [c.code for c in outcome.banker_cards] == ["JC", "2H", "AD"]
    assert (outcome.player_score, outcome.banker_score, outcome.winner) == (9, 3, Winner.PLAYER)


def test_natural_9_beats_natural_8_on_four_cards() -> None:
    outcome = deal("TS", "4H", "9S", "4D", "2C", "2C")
    assert outcome.player_natural and outcome.banker_natural
    assert outcome.winner is Winner.PLAYER
    assert len(outcome.player_cards) == len(outcome.banker_cards) == 2


def test_player_stands_on_6_and_banker_draws_on_5() -> None:
    outcome = deal("3S", "2H", "3D", "3C", "4C")
    assert len(outcome.player_cards) == 2
    assert [c.code for c in outcome.banker_cards] == ["2H", "3C", "4C"]
    assert outcome.banker_score == 9
