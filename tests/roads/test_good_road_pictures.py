"""docs/roads.md's "Good roads, exactly": each good road's smallest shoe that shows it and
a near miss that does not, as the engine judges them; the pictures in docs/roads/ as the
generator (tables/pages/road_pictures.py) writes them now; and every threshold of
``GoodRoadRules`` stated in its pattern's rule."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from itertools import product
from pathlib import Path

import pytest

from roads.patterns import DEFAULT_RULES, PATTERNS, GoodRoadRules
from tables.pages.road_pictures import PICTURES, Picture, file_name, picture_files

from .pictures import roads_of

pytestmark = pytest.mark.backend_free  # the engine, a template and files: no database, cache or channel layer

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "roads.md").read_text(encoding="utf-8")
PICTURE_DIR = ROOT / "docs" / "roads"
SVG = "{http://www.w3.org/2000/svg}"
STYLESHEET = (ROOT / "static" / "css" / "app.css").read_text(encoding="utf-8")
# The pages' Banker and Player colours: the stylesheet's first (the colour-blind theme's come later).
COLOURS = {side: re.findall(rf"--{side}: (#\w+);", STYLESHEET)[0] for side in ("banker", "player")}
each_picture = pytest.mark.parametrize("picture", PICTURES, ids=[p.key for p in PICTURES])

# The field of GoodRoadRules each pattern's rule turns on.
THRESHOLDS = {
    "long_banker": "long_streak",
    "long_player": "long_streak",
    "one_lounge_two_rooms_banker": "lounge_repeats",
    "one_lounge_two_rooms_player": "lounge_repeats",
    "big_road_single": "single_columns",
    "consecutive_banker": "consecutive_repeats",
    "consecutive_player": "consecutive_repeats",
    "clap_clap_road": "clap_columns",
    "double_jump": "double_jump_columns",
    "banker_always_jumps": "jump_singles",
    "player_always_jumps": "jump_singles",
    "slope_road": "slope_columns",
}


def shows(shoe: str, key: str) -> bool:
    """Whether the engine's Big Road of ``shoe`` shows the pattern ``key`` now."""
    return key in roads_of(shoe).good_roads()


def stated(rules: GoodRoadRules) -> dict[str, str]:
    """The words each pattern's rule uses for what its threshold makes: the depth of the
    newest column, or how many of the newest columns the pattern spans."""
    newest = "newest {} columns".format
    return {
        "long_banker": f"at least {rules.long_streak} deep",
        "long_player": f"at least {rules.long_streak} deep",
        "one_lounge_two_rooms_banker": newest(2 * rules.lounge_repeats),  # (1, 2) a pair of columns each time
        "one_lounge_two_rooms_player": newest(2 * rules.lounge_repeats),
        "big_road_single": newest(rules.single_columns),
        "consecutive_banker": newest(2 * rules.consecutive_repeats),
        "consecutive_player": newest(2 * rules.consecutive_repeats),
        "clap_clap_road": newest(rules.clap_columns),
        "double_jump": newest(rules.double_jump_columns),
        "banker_always_jumps": newest(2 * rules.jump_singles - 1),  # the singles and the columns between them
        "player_always_jumps": newest(2 * rules.jump_singles - 1),
        "slope_road": newest(rules.slope_columns),
    }


def sections() -> dict[str, str]:
    """Each pattern's part of "Good roads, exactly", by its key, whitespace made single
    spaces (the docs wrap their lines anywhere)."""
    part = DOCS.split("\n## Good roads, exactly\n", 1)[1].split("\n## ", 1)[0]
    found = re.split(r"^### .*: `(\w+)`$", part, flags=re.M)[1:]
    return {key: " ".join(text.split()) for key, text in zip(found[::2], found[1::2], strict=True)}


def rule(key: str) -> str:
    """A pattern's rule: the paragraph under its heading."""
    return " ".join(sections()[key].split(" | ", 1)[0].split())


def one_result_away(shoe: str) -> set[str]:
    """Every shoe one result added, taken away or changed from ``shoe``."""
    cuts = [(shoe[:at], shoe[at:]) for at in range(len(shoe) + 1)]
    added = {head + result + tail for head, tail in cuts for result in "BPT"}
    taken = {head + tail[1:] for head, tail in cuts if tail}
    changed = {head + result + tail[1:] for head, tail in cuts if tail for result in "BPT"}
    return (added | taken | changed) - {shoe}


@each_picture
def test_every_shows_shoe_shows_its_pattern_and_every_near_miss_does_not(picture: Picture) -> None:
    assert shows(picture.shows, picture.key)
    assert not shows(picture.misses, picture.key)


@each_picture
def test_no_shorter_shoe_than_the_shows_shoe_shows_the_pattern(picture: Picture) -> None:
    # Banker and Player results alone are enough to try: a tie deepens no column, so a
    # shoe with ties has the columns of a shorter one without them.
    shorter = ("".join(shoe) for length in range(1, len(picture.shows)) for shoe in product("BP", repeat=length))
    assert [shoe for shoe in shorter if shows(shoe, picture.key)] == []


@each_picture
def test_every_near_miss_is_one_result_from_showing_its_pattern(picture: Picture) -> None:
    assert any(shows(shoe, picture.key) for shoe in one_result_away(picture.misses))


def test_every_pattern_has_its_pictures_once() -> None:
    assert [p.key for p in PICTURES] == [p.key for p in PATTERNS]


def test_every_picture_in_docs_roads_is_what_the_generator_writes_now() -> None:
    # Stale pictures: python -m tables.pages.road_pictures writes them again.
    expected = picture_files()
    assert sorted(path.name for path in PICTURE_DIR.iterdir()) == sorted(expected)
    for name, text in expected.items():
        assert (PICTURE_DIR / name).read_text(encoding="utf-8") == text, name


@each_picture
def test_every_picture_is_a_standalone_svg_with_a_red_ring_a_banker_and_a_blue_ring_a_player(picture: Picture) -> None:
    for kind, shoe in (("shows", picture.shows), ("misses", picture.misses)):
        svg = ET.parse(PICTURE_DIR / file_name(picture.key, kind)).getroot()
        assert svg.tag == f"{SVG}svg" and svg.get("width") and svg.get("height")
        style = "".join(element.text or "" for element in svg.iter(f"{SVG}style"))
        markers = {marker.get("id") for marker in svg.iter(f"{SVG}marker")}
        drawn = {path.get("class"): path.get("d", "") for path in svg.iter(f"{SVG}path") if path.get("class")}
        for kind_class in drawn:  # each kind of mark drawn has its marker and its rule
            assert kind_class.replace("mk-", "mark-", 1) in markers and f".{kind_class} {{" in style
        assert f".stroke-B {{ stroke: {COLOURS['banker']}; }}" in style
        assert f".stroke-P {{ stroke: {COLOURS['player']}; }}" in style
        rings = {side: len(drawn.get(f"mk-ring-{side}", "").split()) // 2 for side in "BP"}
        assert rings == {"B": shoe.count("B"), "P": shoe.count("P")}


@each_picture
def test_the_docs_show_both_pictures_their_shoes_and_why_the_near_miss_does_not_show(picture: Picture) -> None:
    section = sections()[picture.key]
    assert f"Shows it: `{picture.shows}`" in section and f"(roads/{file_name(picture.key, 'shows')})" in section
    assert f"Does not show it: `{picture.misses}`" in section
    assert f"(roads/{file_name(picture.key, 'misses')})" in section
    assert " ".join(picture.why_not.split()) in section


def test_the_docs_have_a_section_for_every_pattern_in_its_order() -> None:
    assert list(sections()) == [p.key for p in PATTERNS]


@pytest.mark.parametrize("key", THRESHOLDS)
def test_each_rule_states_its_threshold_by_name_and_in_its_words(key: str) -> None:
    field = THRESHOLDS[key]
    named = dict(re.findall(r"`(\w+) = (\d+)`", rule(key)))
    assert named == {field: str(getattr(DEFAULT_RULES, field))}
    assert stated(DEFAULT_RULES)[key] in rule(key)


def test_every_threshold_of_the_rules_is_stated_in_the_docs() -> None:
    assert set(THRESHOLDS.values()) == {field.name for field in dataclasses.fields(GoodRoadRules)}
