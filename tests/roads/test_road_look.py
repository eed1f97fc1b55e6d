"""How the road marks look, read from the page's marker definitions
(templates/tables/_road_defs.html) and the site's stylesheet: seed 000's colours and
corners, marks that fill their cells, the colour-blind theme's second shapes, and text
that reads at 4.5:1."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.template.loader import render_to_string

ROOT = Path(__file__).resolve().parents[2]
DEFS = render_to_string("tables/_road_defs.html")  # its words in English
CSS = re.sub(r"/\*.*?\*/", "", (ROOT / "static/css/app.css").read_text(), flags=re.S)  # comments left out


def markers() -> dict[str, ET.Element]:
    svg = DEFS[DEFS.index("<svg") : DEFS.index("</svg>") + len("</svg>")]
    return {m.get("id", "").removeprefix("mark-"): m for m in ET.fromstring(svg).iter("marker")}


def shapes(kind: str, theme: str = "standard") -> list[ET.Element]:
    """The shapes a marker draws in a theme: its own, bar the other theme's group."""
    hidden = "shape-cb" if theme == "standard" else "shape-std"
    drawn: list[ET.Element] = []

    def walk(element: ET.Element) -> None:
        for child in element:
            if child.tag == "g":
                if child.get("class") != hidden:
                    walk(child)
            elif child.tag != "text":
                drawn.append(child)

    walk(markers()[kind])
    return drawn


def extent(shape: ET.Element) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a shape in its 20-unit cell, its stroke left out."""
    a = {k: float(v) for k, v in shape.attrib.items() if re.fullmatch(r"-?[\d.]+", v)}
    if shape.tag == "circle":
        return a["cx"] - a["r"], a["cy"] - a["r"], a["cx"] + a["r"], a["cy"] + a["r"]
    if shape.tag == "rect":
        return a["x"], a["y"], a["x"] + a["width"], a["y"] + a["height"]
    if shape.tag == "line":
        return min(a["x1"], a["x2"]), min(a["y1"], a["y2"]), max(a["x1"], a["x2"]), max(a["y1"], a["y2"])
    numbers = [float(n) for n in re.findall(r"[\d.]+", shape.get("d", ""))]
    xs, ys = numbers[::2], numbers[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def paint(shape: ET.Element) -> set[str]:
    return set(shape.get("class", "").split())


@pytest.mark.parametrize("theme", ["standard", "colorblind"])
def test_a_banker_pair_is_a_red_dot_top_left_and_a_player_pair_a_blue_dot_bottom_right(theme: str) -> None:
    [banker] = shapes("pair-B", theme)
    [player] = shapes("pair-P", theme)
    assert "fill-B" in paint(banker) and "fill-P" in paint(player)
    left, top, right, bottom = extent(banker)
    assert right <= 7 and bottom <= 7  # in the top left corner of the cell
    left, top, right, bottom = extent(player)
    assert left >= 13 and top >= 13  # in the bottom right corner


def test_no_rule_of_the_stylesheet_paints_a_pair_dot_in_another_colour() -> None:
    # The bug this replaces: `.bead.win-X circle` and `.ring circle` outranked .pair-B / .pair-P.
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", CSS):
        if "pair" in selector and "fill" in body:
            pytest.fail(f"{selector.strip()} sets a fill on pair dots: {body.strip()}")
    assert re.search(r"\.fill-B\s*\{\s*fill:\s*var\(--banker\)", CSS)
    assert re.search(r"\.fill-P\s*\{\s*fill:\s*var\(--player\)", CSS)


@pytest.mark.parametrize("theme", ["standard", "colorblind"])
@pytest.mark.parametrize("kind", ["eye-red", "eye-blue", "dot-red", "dot-blue", "slash-red", "slash-blue"])
def test_a_derived_roads_mark_fills_most_of_its_cell(kind: str, theme: str) -> None:
    [shape] = shapes(kind, theme)
    left, top, right, bottom = extent(shape)
    assert min(right - left, bottom - top) >= 0.7 * 20  # was 12 of 20 units (60 %)


@pytest.mark.parametrize(
    "red, blue", [("bead-B", "bead-P"), ("ring-B", "ring-P"), ("eye-red", "eye-blue"), ("dot-red", "dot-blue"),
                  ("slash-red", "slash-blue"), ("pair-B", "pair-P")],
)  # fmt: skip
def test_the_colour_blind_theme_tells_red_and_blue_marks_apart_by_their_shape(red: str, blue: str) -> None:
    def outline(kind: str) -> list[tuple[str, dict[str, str]]]:
        return [(s.tag, {k: v for k, v in s.attrib.items() if k != "class"}) for s in shapes(kind, "colorblind")]

    # Placed in the same spot, a pair's dots would still differ by their corners: compare shapes at the centre.
    def centred(kind: str) -> list[tuple[str, dict[str, str]]]:
        return [(tag, {k: v for k, v in a.items() if k not in {"cx", "cy", "x", "y"}}) for tag, a in outline(kind)]

    assert centred(red) != centred(blue)


def test_the_colour_blind_theme_draws_a_ties_bead_unlike_a_banker_or_player_bead() -> None:
    tags = {kind: [s.tag for s in shapes(kind, "colorblind")] for kind in ("bead-B", "bead-P", "bead-T")}
    assert len({tuple(t) for t in tags.values()}) == 3


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    dark, light = sorted([luminance(a), luminance(b)])
    return (light + 0.05) / (dark + 0.05)


def variables(selector: str) -> dict[str, str]:
    body = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", CSS)
    assert body, f"no {selector} rule in app.css"
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", body.group(1)))


@pytest.mark.parametrize("theme", [":root", 'html[data-theme="colorblind"]'])
def test_white_letters_on_banker_player_and_tie_marks_read_at_4_5_to_1_and_so_does_the_tie_count(theme: str) -> None:
    colours = variables(":root") | variables(theme)
    for side in ("banker", "player", "tie"):
        assert contrast("#ffffff", colours[side]) >= 4.5, side  # bead letters, result circles, ask buttons
    assert contrast(colours["tie"], "#fbfbf7") >= 4.5  # a Big Road's tie count, on the white board


def test_the_page_text_reads_at_4_5_to_1_on_its_panels() -> None:
    colours = variables(":root")
    for text in ("text", "muted", "gold"):
        for ground in ("bg", "panel", "panel-2"):
            assert contrast(colours[text], colours[ground]) >= 4.5, (text, ground)
