"""The roads' words (titles, good roads' names, each road said for a screen reader) come
from gettext in the shell (tables/pages/road_labels.py), in the language a page is rendered in."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from roads.patterns import PATTERNS
from tables import services
from tables.pages import road_labels as labels
from tables.pages import svg
from tests.html import find, find_all
from tests.roads.pictures import roads_of
from tests.rounds import SEED


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_each_road_says_in_words_what_it_shows() -> None:
    roads = roads_of("bTPPpBT")
    assert labels.road_words(svg.bead_plate(roads)) == (
        "Bead Plate: 7 rounds, Banker 2, Player 3, Tie 2; 1 banker pair, 1 player pair; last round Tie."
    )
    assert labels.road_words(svg.big_road(roads)) == "Big Road: 3 columns, 2 ties; newest column Banker, 1 in a row."
    assert labels.road_words(svg.derived_road(roads, "big_eye_road")) == (
        "Big Eye Road: 3 marks, 1 red, 2 blue; newest blue."
    )
    assert labels.road_words(svg.big_road(roads_of("TT"))) == "Big Road: no Banker or Player win yet, 2 ties."
    assert labels.road_words(svg.derived_road(roads_of(""), "small_road")) == "Small Road: no marks yet."


def test_the_words_count_in_the_singular_and_the_plural_and_name_the_pairs_there_are() -> None:
    assert labels.road_words(svg.bead_plate(roads_of(""))) == "Bead Plate: no rounds yet."
    assert labels.road_words(svg.bead_plate(roads_of("B"))) == (
        "Bead Plate: 1 round, Banker 1, Player 0, Tie 0; no pairs; last round Banker."
    )
    assert labels.road_words(svg.bead_plate(roads_of("bbP"))) == (
        "Bead Plate: 3 rounds, Banker 2, Player 1, Tie 0; 2 banker pairs; last round Player."
    )
    assert labels.road_words(svg.big_road(roads_of(""))) == "Big Road: no Banker or Player win yet."
    assert labels.road_words(svg.big_road(roads_of("PPPT"))) == (
        "Big Road: 1 column, 1 tie; newest column Player, 3 in a row."
    )


def test_every_road_and_every_good_road_has_a_translatable_name() -> None:
    assert set(labels.ROAD_TITLES) == set(svg.ROAD_TITLES)
    assert all(str(labels.ROAD_TITLES[name]) == title for name, title in svg.ROAD_TITLES.items())
    assert {p.key: labels.pattern_name(p.key) for p in PATTERNS} == {p.key: p.name for p in PATTERNS}


def test_the_road_filters_word_a_board_in_the_language_it_is_rendered_in() -> None:
    board = svg.derived_road(roads_of("BBPB"), "cockroach_road")
    page = Template(
        "{% load road_svg %}{{ board.name|road_title }} | {{ board|road_words }} | {{ 'slope_road'|pattern_name }}"
    )
    assert page.render(Context({"board": board})) == "Cockroach Road | Cockroach Road: no marks yet. | Slope Road"
    with translation.override("zh-hans"):  # no catalogue yet: whatever it says, it says it whole
        assert page.render(Context({"board": board})).count(" | ") == 2


def test_every_road_a_page_draws_is_described_in_words_by_the_element_it_names(
    client: Client, baccarat_1, staff_reviewer
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    first = services.round_record(table=table, **SEED).round
    services.round_record(table=table, **SEED)
    client.force_login(staff_reviewer)
    pages = [
        "/tables/baccarat-1/",
        "/tables/baccarat-1/display/",
        f"/rounds/{first.round_id}/",
        f"/admin/tables/shoe/{first.shoe_id}/change/",
        f"/admin/tables/round/{first.pk}/change/",
    ]
    for path in pages:
        page = client.get(path).content.decode()
        roads = find_all(page, "svg", cls="road")
        assert roads, path
        for road in roads:
            if "aria-describedby" not in road.attrs:  # described inside: its own <desc>
                assert find(road.html, "desc").text.startswith(road.attrs["aria-label"] + ":"), path
                continue
            words = find(page, "*", id=road.attrs["aria-describedby"])
            assert words.text.startswith(road.attrs["aria-label"] + ":"), (path, road.attrs)
