"""Good roads (seed 001), each on and off, judged at the newest column."""

import pytest

from roads.patterns import GoodRoadRules

from .pictures import roads_of


def good(text: str) -> list[str]:
    return roads_of(text).good_roads()


@pytest.mark.parametrize(
    ("pattern", "on", "off"),
    [
        # "At least 4 consecutive Bankers on the Big Road"
        ("long_banker", "P BBBB", "P BBB"),
        ("long_banker", "BBTBBB", "BBBB P"),
        ("long_player", "B PPPPP", "B PPP"),
        # "Pattern (Banker, Player Player) appears at least 2 times on the Big Road consecutively"
        ("one_lounge_two_rooms_banker", "B PP B PP", "B PP B P"),
        ("one_lounge_two_rooms_banker", "PP B PP B PP", "B PP B PPP"),
        ("one_lounge_two_rooms_player", "P BB P BB", "P BB PP BB"),
        # "Intervals of 1 player and 1 banker on the Big Road consecutively"
        ("big_road_single", "B P B P", "B P B"),
        ("big_road_single", "BB P B P B", "B P B PP"),
        # "At least 2 Bankers are followed by at least 1 player ... at least 3 times"
        ("consecutive_banker", "BB P BBB PP BB P", "BB P BB P B P"),
        ("consecutive_banker", "BB P BB P BB PPP", "BB P BB P BB"),
        ("consecutive_player", "PP B PP B PPP BB", "PP B PP B PP"),
        # "Intervals of at least 2 players and at least 2 bankers on the Big Road consecutively"
        ("clap_clap_road", "BB PP BB PP", "BB PP BB P"),
        ("clap_clap_road", "B PPP BB PP BBB", "BB PP B PP"),
    ],
)
def test_each_good_road_holds_only_when_it_ends_at_the_newest_column(pattern: str, on: str, off: str) -> None:
    assert pattern in good(on)
    assert pattern not in good(off)


def test_a_shoe_with_no_banker_or_player_yet_has_no_good_road() -> None:
    assert good("") == [] and good("TTT") == []


def test_the_thresholds_live_in_one_place() -> None:
    from roads.engine import Roads

    from .pictures import shoe

    strict = GoodRoadRules(long_streak=6)
    assert "long_banker" not in Roads.of(shoe("BBBBB"), strict).good_roads()
    assert "long_banker" in Roads.of(shoe("BBBBBB"), strict).good_roads()
