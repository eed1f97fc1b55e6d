"""The pictures of docs/roads.md's "Good roads, exactly": for each good road, the
smallest shoe that shows it and a near miss that does not, drawn as the pages draw a
Big Road, one standalone SVG file each in docs/roads/.

:data:`PICTURES` is the one place the shoes and the sentence saying why a near miss
does not show live: the docs quote them and tests/roads/test_good_road_pictures.py
holds the docs, the files and the engine to them. Write the files again after changing
the table, the road's template or its colours::

    python -m tables.pages.road_pictures          # from the project's root
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

import django
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation

from roads.patterns import PATTERN_NAMES

from . import svg


@dataclass(frozen=True)
class Picture:
    """One good road's pair of pictures."""

    key: str  # the pattern's key in roads/patterns.py
    shows: str  # the smallest shoe that shows it, "B", "P" and "T" oldest first
    misses: str  # a shoe a reader could take for it, one result away from showing it
    why_not: str  # why ``misses`` does not show it, in one sentence for the docs


PICTURES = (
    Picture("long_banker", "BBBB", "BBBBP",
            "The Player starts a new column: a pattern shows only while it ends at the newest column."),
    Picture("long_player", "PPPP", "PPTP",
            "A tie is not a Player win: it marks the column without deepening it, which stays 3 deep."),
    Picture("one_lounge_two_rooms_banker", "BPPBPP", "BPPBPPP",
            "A room is exactly 2: the newest Player column is 3 deep."),
    Picture("one_lounge_two_rooms_player", "PBBPBB", "PPBBPBB",
            "A lounge is exactly 1: the oldest of the newest 4 columns is a Player column 2 deep."),
    Picture("big_road_single", "BPBP", "BBPBP",
            "Only the newest 3 columns are single: the Banker column before them is 2 deep."),
    Picture("consecutive_banker", "BBPBBPBBP", "BBPBBPBB",
            "The pattern ends with a Player column: the third Banker column needs a Player after it."),
    Picture("consecutive_player", "PPBPPBPPB", "PPBPBPPB",
            "Every Player column needs at least 2: the middle one is 1 deep."),
    Picture("clap_clap_road", "BBPPBBPP", "BPPBBPP",
            "Only 3 columns are at least 2 deep: the oldest Banker column is 1 deep."),
    Picture("double_jump", "BBPPBBPP", "BBPPBBPPP",
            "Exactly 2 each: the newest column is 3 deep (Clap Clap Road still shows)."),
    Picture("banker_always_jumps", "BPBPB", "BPBPBP",
            "The newest column must be the third single Banker: the Player after it hides the pattern "
            "until the next Banker."),
    Picture("player_always_jumps", "PBPBP", "PBPBPP",
            "Every Player column is a single: the newest is 2 deep."),
    Picture("slope_road", "BPPBBBPPPP", "BPPBBBPPPPP",
            "Each column is exactly one deeper than the one before: the newest is 5 deep after 3."),
)  # fmt: skip

ROOT = Path(__file__).resolve().parents[2]  # the project's, where docs/ and static/ are
DIRECTORY = ROOT / "docs" / "roads"
STYLESHEET = ROOT / "static" / "css" / "app.css"
PIXELS_PER_CELL = 24  # a cell a little larger than the pages' 16 px minimum, read at a glance
# The rules of app.css a Big Road's drawing needs, copied into each picture: a file
# shown as an image gets no page stylesheet, and copying keeps the pages' colours.
STYLE_SELECTORS = (
    "svg.road .board", "#road-grid path", "svg.road path",
    ".mk-ring-B", ".mk-ring-P", ".mk-tie", ".mk-pair-B", ".mk-pair-P",
    ".fill-B", ".fill-P", ".stroke-B", ".stroke-P", ".ring", ".tie", ".pair",
    "svg.road text.ties", '.shape-cb, html[data-theme="colorblind"] .shape-std',
)  # fmt: skip


def file_name(key: str, kind: str) -> str:
    """``long_banker-shows.svg`` or ``long_banker-misses.svg``."""
    return f"{key}-{kind}.svg"


def picture_files() -> dict[str, str]:
    """Every picture's file name and SVG text, shows then misses for each pattern."""
    shoes = [(p, kind, shoe) for p in PICTURES for kind, shoe in (("shows", p.shows), ("misses", p.misses))]
    boards = svg.pattern_pictures(shoe for _, _, shoe in shoes)
    # All as wide as the widest too: one cell size, and the grid runs on past short shoes.
    width = max(board.columns for board in boards)
    style, defs = _style(), _defs()
    files = {}
    for (picture, kind, shoe), board in zip(shoes, boards, strict=True):
        title = f"{PATTERN_NAMES[picture.key]}: {shoe} {'shows it' if kind == 'shows' else 'does not show it'}"
        files[file_name(picture.key, kind)] = _standalone(replace(board, columns=width), title, style, defs)
    return files


def write_pictures(directory: Path = DIRECTORY) -> list[Path]:
    """Writes every picture into ``directory``; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in picture_files().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _standalone(board: svg.Board, title: str, style: str, defs: str) -> str:
    """The page's road (the ``road`` tag) inside an SVG document of its own: the
    namespace, the markers its marks use and the stylesheet's rules for them."""
    with translation.override("en"):  # the road's description, in the docs' language
        road = Template("{% load road_svg %}{% road board %}").render(Context({"board": board}))
    used = "".join(line for line in defs.splitlines(keepends=True) if _used(line, road))
    width, height = board.columns * PIXELS_PER_CELL, board.rows * PIXELS_PER_CELL
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
        f"<title>{title}</title>\n<style>\n{style}</style>\n<defs>\n{used}</defs>\n{road}\n</svg>\n"
    )


def _used(line: str, road: str) -> bool:
    """A definition line of the road's grid, or of a marker one of its paths puts down."""
    found = re.search(r'<(?:pattern|marker) id="(?:mark-)?([\w-]+)"', line)
    return found is not None and (found[1] == "road-grid" or f"mk-{found[1]}" in road)


def _defs() -> str:
    """The page's marker definitions (tables/_road_defs.html), one a line."""
    with translation.override("en"):
        page = render_to_string("tables/_road_defs.html")
    return page[page.index("<defs>") + len("<defs>") : page.index("</defs>")].strip() + "\n"


def _style() -> str:
    """The stylesheet's rules for a Big Road's marks, its colour variables filled in."""
    rules = _rules(STYLESHEET.read_text(encoding="utf-8"))
    variables = dict(re.findall(r"--([\w-]+):\s*([^;]+);", rules[":root"]))
    lines = []
    for selector in STYLE_SELECTORS:
        body = re.sub(r"var\(--([\w-]+)\)", lambda m: variables[m[1]].strip(), rules[selector])
        lines.append(f"{selector} {{ {body} }}\n")
    return "".join(lines)


def _rules(css: str) -> dict[str, str]:
    """The stylesheet's top-level rules (not those inside ``@media``), each selector's
    declarations in the order the stylesheet gives them."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules: dict[str, str] = {}
    depth, start, opened, selector = 0, 0, 0, ""
    for at, char in enumerate(css):
        if char == "{":
            if depth == 0:
                selector, opened = " ".join(css[start:at].split()), at + 1
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                body = " ".join(css[opened:at].split())
                rules[selector] = f"{rules[selector]} {body}" if selector in rules else body
                start = at + 1
    return rules


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    for written in write_pictures():
        print(written)
