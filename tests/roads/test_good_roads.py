"""Good roads (seed 001's eight and issue 21's four), each on and off, judged at the newest column."""

import pytest

from roads.patterns import GoodRoadRules

from .pictures import roads_of

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer


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
        # Issue 21: "the newest four columns hold exactly 2 entries each (BB PP BB PP, either side first)"
        ("double_jump", "BB PP BB PP", "BB PP BB P"),
        ("double_jump", "PP BB PP BB", "BB PP BB PPP"),
        ("double_jump", "BBB PP BB PP BB", "BBB PP BB PP"),
        ("double_jump", "BTB PP BB PTP", "B PP BB PP"),
        # "the newest column is a single Banker, and so are the two Banker columns before it,
        # with Player columns of any length between them (B1 P>=1 B1 P>=1 B1)"
        ("banker_always_jumps", "B P B P B", "B P B P"),
        ("banker_always_jumps", "B PPP B PPPPP B", "B PPP B PPPPP BB"),
        ("banker_always_jumps", "BBB P B PP B P B", "BB P B PP B"),
        ("banker_always_jumps", "B PP BT PPP TB", "P B P B P"),
        ("player_always_jumps", "P B P B P", "P B P B"),
        ("player_always_jumps", "P BBBB P BB P", "PP B P B P"),
        # "the newest four columns' lengths rise by exactly one from each to the next (n, n+1, n+2, n+3)"
        ("slope_road", "B PP BBB PPPP", "B PP BBB PPP"),
        ("slope_road", "PP BBB PPPP BBBBB", "B PP BBB PPPPP"),
        ("slope_road", "BBBB P BB PPP BBBB", "B PP BB PPP"),
        ("slope_road", "P BB PPP BBBB", "PPPP BBB PP B"),
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


def test_the_new_patterns_are_judged_at_the_newest_column_at_its_current_length() -> None:
    # A slope stands while its newest column is 4 long, and is gone when it grows to 5.
    assert good("B PP BBB PPP") == []
    assert good("B PP BBB PPPP") == ["long_player", "slope_road"]
    assert good("B PP BBB PPPPP") == ["long_player"]
    # A double jump stands at each second entry and falls at each first of a column.
    assert good("BB PP BB PP") == ["clap_clap_road", "double_jump"]
    assert good("BB PP BB PP B") == []
    assert good("BB PP BB PP BB") == ["clap_clap_road", "double_jump"]


def test_banker_always_jumps_sits_beside_big_road_single_when_the_players_are_single_too() -> None:
    assert good("B P B P B") == ["big_road_single", "banker_always_jumps"]
    assert good("P B P B P") == ["big_road_single", "player_always_jumps"]
    assert good("B PP B P B") == ["banker_always_jumps"]


def test_each_new_threshold_lives_in_the_rules() -> None:
    from roads.engine import Roads

    from .pictures import shoe

    def judged(text: str, rules: GoodRoadRules) -> list[str]:
        return Roads.of(shoe(text), rules).good_roads()

    assert "double_jump" in judged("BB PP BB", GoodRoadRules(double_jump_columns=3))
    assert "double_jump" not in judged("PP BB PP BB", GoodRoadRules(double_jump_columns=5))
    assert "banker_always_jumps" in judged("B PPP B", GoodRoadRules(jump_singles=2))
    assert "banker_always_jumps" not in judged("B P B P B", GoodRoadRules(jump_singles=4))
    assert "slope_road" in judged("PP BBB PPPP", GoodRoadRules(slope_columns=3))
    assert "slope_road" not in judged("B PP BBB PPPP", GoodRoadRules(slope_columns=5))


def test_every_pattern_has_an_english_name_and_an_example_shoe_that_shows_it() -> None:
    from roads.patterns import PATTERN_NAMES, PATTERNS

    assert len(PATTERNS) == len(PATTERN_NAMES) == 12
    for pattern in PATTERNS:
        assert pattern.name and pattern.key in good(pattern.example), pattern.key


def test_the_new_patterns_keep_their_chinese_names_for_the_translations() -> None:
    from roads.patterns import PATTERNS

    chinese = {p.key: (p.zh_hans, p.zh_hant) for p in PATTERNS if p.zh_hans}
    assert chinese == {
        "double_jump": ("大路双跳", "大路雙跳"),
        "banker_always_jumps": ("逢庄跳", "逢莊跳"),
        "player_always_jumps": ("逢闲跳", "逢閒跳"),
        "slope_road": ("斜坡路", "斜坡路"),
    }
