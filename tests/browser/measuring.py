"""What the screens' tests measure in the browser (issue 31): text that runs into other
text or is cut, a Big Road's tie counts as drawn, the colours a theme gives, WCAG's
contrast ratio of two colours, the words a translated page leaves in English, and each
road's cells, columns out of view and newest mark on a table page."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import Any

# Every line of text under `scope` (HTML only: the roads' SVG letters are marks) as the
# browser lays it out: its box (across, its letters' advances; up and down, its glyphs' ink,
# which a canvas measures in the same font: not its line's leading), the block it flows
# in, and whether an ancestor that hides its overflow cuts part of it off (a line wholly
# out of sight, like a badge wrapped off its shelf, is not shown and not measured). Two
# lines of different blocks collide when their boxes overlap or come closer side by side
# than a fifth of the smaller text's size: "BANKER7" collides, "BANKER 7" does not.
TEXT_JS = """(scope) => {
  const lines = [], ink = document.createElement('canvas').getContext('2d');
  const walker = document.createTreeWalker(document.querySelector(scope), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest('svg')) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== 'visible') continue;
    let block = el;
    while (getComputedStyle(block).display === 'inline') block = block.parentElement;
    let clip = {left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity};
    for (let a = el; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      const r = a.getBoundingClientRect();
      if (s.overflowX !== 'visible')
        clip = {...clip, left: Math.max(clip.left, r.left), right: Math.min(clip.right, r.right)};
      if (s.overflowY !== 'visible')
        clip = {...clip, top: Math.max(clip.top, r.top), bottom: Math.min(clip.bottom, r.bottom)};
    }
    const size = parseFloat(style.fontSize), range = document.createRange();
    range.selectNodeContents(node);
    ink.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = node.textContent.trim();
    const glyphs = ink.measureText(style.textTransform === 'uppercase' ? text.toUpperCase() : text);
    for (const r of range.getClientRects()) {
      if (!r.width) continue;
      const baseline = r.top + glyphs.fontBoundingBoxAscent;
      const box = {left: r.left, right: r.right,
                   top: baseline - glyphs.actualBoundingBoxAscent, bottom: baseline + glyphs.actualBoundingBoxDescent};
      const shown = {left: Math.max(box.left, clip.left), right: Math.min(box.right, clip.right),
                     top: Math.max(box.top, clip.top), bottom: Math.min(box.bottom, clip.bottom)};
      if (shown.right <= shown.left || shown.bottom <= shown.top) continue;
      const cut = shown.left > box.left + 1 || shown.right < box.right - 1
                  || shown.top > box.top + 1 || shown.bottom < box.bottom - 1;
      lines.push({text, block, size, cut, ...box});
    }
  }
  const collisions = [];
  lines.forEach((a, i) => lines.slice(i + 1).forEach(b => {
    const space = Math.min(a.size, b.size) / 5;
    if (a.block !== b.block && a.left < b.right + space && b.left < a.right + space
        && a.top < b.bottom && b.top < a.bottom) collisions.push(a.text + ' | ' + b.text);
  }));
  return {collisions, cut: lines.filter(l => l.cut).map(l => l.text)};
}"""


WELL_SET = {"collisions": [], "cut": []}  # what :func:`text_faults` finds on a page whose texts are well set


def text_faults(page: Any, scope: str) -> dict[str, list[str]]:
    """The texts under ``scope`` as shown, from one walk of them and their ancestors:
    ``collisions``, pairs that overlap or touch ("BANKER | 7"), and ``cut``, those an
    ancestor cuts off in part (a name ending in "…")."""
    return page.evaluate(TEXT_JS, scope)


@dataclass(frozen=True)
class TieCount:
    """A Big Road tie count as drawn: CSS px of its font, of the halo around its digits
    and of its cell; its digits' and halo's colours and the tie stripe's."""

    count: str
    font: float
    halo: float
    cell: float
    digits: str
    halo_colour: str
    stripe: str


def tie_counts(page: Any, scope: str) -> list[TieCount]:
    """The tie counts of the roads under ``scope`` that lie in their road's view."""
    found = page.evaluate(
        """(scope) => {
            const stripe = getComputedStyle(document.querySelector('#mark-tie line')).stroke;
            return [...document.querySelectorAll(scope + ' svg.road text.ties')].flatMap(t => {
                const svg = t.ownerSVGElement, view = svg.getBoundingClientRect(), r = t.getBoundingClientRect();
                if (!r.width || r.left < view.left || r.right > view.right || svg.closest('[hidden]')) return [];
                const scale = svg.getScreenCTM().a, s = getComputedStyle(t);  // the road's units to CSS px
                return [{count: t.textContent, font: parseFloat(s.fontSize) * scale,
                         halo: parseFloat(s.strokeWidth) / 2 * scale, cell: 20 * scale,
                         digits: s.fill, halo_colour: s.stroke, stripe}];
            });
        }""",
        scope,
    )
    return [TieCount(**count) for count in found]


@dataclass(frozen=True)
class TieRing:
    """A Big Road tie count beside the ring of its cell, as drawn: whether the count's box
    covers the cell's middle, and how much of the ring's colour (Banker's or Player's)
    shows with the count drawn, against the cell drawn without it (1: all of it)."""

    count: str
    covers_middle: bool
    ring_shown: float


# The tie counts of visible Big Roads under a scope that lie in their road's view, each
# with its cell's box on the screen (a count's x is its cell's middle, its y the middle
# and 3.5: tables/pages/svg.py) and the ring's colour.
TIE_CELLS_JS = """(scope) => [...document.querySelectorAll(scope + ' svg.road-big_road text.ties')].flatMap(t => {
    const svg = t.ownerSVGElement, view = svg.getBoundingClientRect(), r = t.getBoundingClientRect();
    if (!r.width || svg.closest('[hidden]')) return [];
    const m = svg.getScreenCTM(), x = +t.getAttribute('x'), y = +t.getAttribute('y') - 3.5;
    const left = m.e + (x - 10) * m.a, top = m.f + (y - 10) * m.d, side = 20 * m.a;
    if (left < view.left || left + side > view.right + 0.5) return [];
    const middle = {x: left + side / 2, y: top + side / 2};
    const ring = [...svg.querySelectorAll('path[class*=mk-ring-]')].find(p =>
        (p.getAttribute('d').match(/-?[\\d.]+/g) || [])
            .some((n, i, all) => i % 2 === 0 && +n === x && +all[i + 1] === y));
    const winner = ring && ring.getAttribute('class').includes('ring-B') ? 'banker' : 'player';
    return [{count: t.textContent, left, top, side,
             coversMiddle: r.left < middle.x && middle.x < r.right && r.top < middle.y && middle.y < r.bottom,
             ring: getComputedStyle(document.documentElement).getPropertyValue('--' + winner).trim(), hasRing: !!ring}];
})"""

# How many of a PNG's pixels are within a distance of 90 (of 441) of a colour ("#d9342b").
COLOURED_JS = """async ([png, colour]) => {
    const image = new Image();
    image.src = 'data:image/png;base64,' + png;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width; canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const want = [1, 3, 5].map(i => parseInt(colour.slice(i, i + 2), 16));
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4)
        if (Math.hypot(data[i] - want[0], data[i + 1] - want[1], data[i + 2] - want[2]) < 90) n++;
    return n;
}"""


def tie_rings(page: Any, scope: str) -> list[TieRing]:
    """The tie counts on rings of the Big Roads under ``scope`` (a count on a shoe's
    opening ties has no ring, and is left out), each cell as the screen shows it with its
    count and without (screenshots of the cell, counted pixel by pixel in the browser)."""
    found = []
    for cell in page.evaluate(TIE_CELLS_JS, scope):
        if not cell["hasRing"]:
            continue
        clip = {"x": cell["left"], "y": cell["top"], "width": cell["side"], "height": cell["side"]}
        shown = page.screenshot(clip=clip)
        page.add_style_tag(content="svg.road text.ties { visibility: hidden !important; }")
        bare = page.screenshot(clip=clip)
        page.evaluate("() => document.head.lastElementChild.remove()")
        with_count, without = (
            page.evaluate(COLOURED_JS, [base64.b64encode(png).decode(), cell["ring"]]) for png in (shown, bare)
        )
        found.append(TieRing(cell["count"], cell["coversMiddle"], with_count / max(without, 1)))
    return found


MIN_RING_SHOWN = 0.75  # of a tied cell's ring in sight around its count


def theme_colours(page: Any) -> dict[str, str]:
    """The page's theme and the road colours it gives (app.css's custom properties)."""
    return page.evaluate(
        """() => {
            const root = getComputedStyle(document.documentElement);
            return {theme: document.documentElement.dataset.theme || '',
                    ...Object.fromEntries(['banker', 'player', 'tie'].map(
                        name => [name, root.getPropertyValue('--' + name).trim()]))};
        }"""
    )


def _luminance(colour: str) -> float:
    match = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, [\d.]+)?\)", colour)
    if match is None:
        raise ValueError(f"not a computed colour: {colour!r}")
    linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in map(int, match.groups())]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """WCAG's contrast ratio of two computed colours ("rgb(21, 128, 61)"): 1 to 21."""
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


MIN_TIE_DIGITS = 15  # CSS px: a tie count's digits at the least, read from 3 m
TIE_DIGITS_OF_CELL = 0.65  # and at least this much of their cell's side
MIN_HALO = 1.5  # CSS px of the board's white between the digits and the stripe under them
MIN_CONTRAST = 4.5  # WCAG AA for text


def tie_count_faults(tie: TieCount) -> list[str]:
    """What keeps a tie count from being read from 3 m: none for a readable one. Its
    digits are the stripe's green (seed 000), large, and clear of the stripe by a halo."""
    faults = []
    if tie.font < max(MIN_TIE_DIGITS, TIE_DIGITS_OF_CELL * tie.cell):
        faults.append(f"digits of {tie.font:.1f} px in a cell of {tie.cell:.1f} px")
    if tie.halo < MIN_HALO:
        faults.append(f"a halo of {tie.halo:.1f} px")
    if tie.digits != tie.stripe:
        faults.append(f"digits {tie.digits}, not the stripe's {tie.stripe}")
    if contrast(tie.digits, tie.halo_colour) < MIN_CONTRAST:
        faults.append(f"contrast {contrast(tie.digits, tie.halo_colour):.2f} against the halo")
    return faults


# The headings, labels and buttons a translated page must not leave in English.
HEADINGS = "h1, h2, h3, summary, th, dt, .road-name, .panel-head, label:not(.language-pick), button, .badge, legend"
KEPT = re.compile(r"Baccarat|Lang\w*|API|ID|JSON|SHA-512|English|Tiếng Việt|[A-Z]\b")
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")


def headings(page: Any) -> list[str]:
    return page.eval_on_selector_all(HEADINGS, "els => els.filter(e => e.offsetParent).map(e => e.innerText)")


def english_left(page: Any, english: set[str]) -> list[str]:
    """The headings, labels and buttons on the page that read as they do on the English
    page (Vietnamese is written in Latin letters too, so the letters alone cannot tell)."""
    return [t for t in headings(page) if t in english and ENGLISH_WORD.search(KEPT.sub("", t))]


def road_figures(page: Any) -> dict[str, dict[str, float]]:
    """Per road: the CSS px of a cell and of its box, the px hidden left and right of the
    box's view, and where the newest mark is on screen against the box."""
    return page.evaluate("""() => {
        const out = {};
        document.querySelectorAll("#roads .road-box").forEach(box => {
            const svg = box.querySelector("svg.road"), r = svg.getBoundingClientRect(), b = box.getBoundingClientRect();
            const cell = r.height / 6, vb = svg.viewBox.baseVal;
            let newest = -1;
            svg.querySelectorAll("g[id^=marks] path").forEach(p => {
                const xs = (p.getAttribute("d").match(/[\\d.]+/g) || []).filter((_, i) => i % 2 === 0).map(Number);
                newest = Math.max(newest, ...xs);
            });
            const x = r.left + (newest - vb.x) * (r.width / vb.width);
            out[svg.id.replace("road-", "")] = {
                cell: cell, box: b.width, left: box.scrollWidth - box.clientWidth + box.scrollLeft,
                right: -box.scrollLeft, newestX: x, boxLeft: b.left, boxRight: b.right, columns: vb.width / 20,
                earlier: box.parentElement.classList.contains("has-earlier"),
            };
        });
        return out;
    }""")


FIRST_ROAD = """[...document.querySelectorAll('#roads svg.road')]
    .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0].id"""  # the road on top


def drawn_over_marks(page: Any) -> list[str]:
    """The roads whose board lies under a scroll hint (a road frame's chevron)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.road-frame')].filter(frame => {
            const box = frame.querySelector('.road-box').getBoundingClientRect();
            return ['::before', '::after'].some(which => {
                const hint = getComputedStyle(frame, which);
                if (hint.display === 'none') return false;
                const f = frame.getBoundingClientRect(), width = parseFloat(hint.width);
                const left = which === '::before' ? f.left - width : f.right;
                return left < box.right && box.left < left + width;
            });
        }).map(frame => frame.querySelector('svg.road').id)"""
    )


# The display's roads as shown (static/js/display.js): for each, the first and last column
# in view, the newest column with a mark, its cell on screen (CSS px) and the note of
# columns off screen ("" when hidden). The grid's unit is 20 (tables/pages/svg.py).
DISPLAY_ROADS_JS = """() => Object.fromEntries([...document.querySelectorAll('#display svg.road')].map(svg => {
    const view = svg.viewBox.baseVal, marks = svg.querySelector('g'), box = marks.getBBox();
    const note = svg.closest('.road-slot').querySelector('.earlier');
    return [svg.id.replace('road-', ''), {
        first: view.x / 20, last: (view.x + view.width) / 20 - 1,
        newest: marks.childElementCount ? Math.floor((box.x + box.width) / 20) : -1,
        cell: svg.getBoundingClientRect().height / 6,
        note: note && !note.hidden ? note.textContent : ''}];
}))"""
BIG_ROAD_CELL, DERIVED_CELL = 32, 16  # CSS px on a 1080p TV: the marks read from 3 m (issue 52)


def display_roads(page: Any) -> dict[str, dict[str, Any]]:
    """Each of the display's roads as shown (:data:`DISPLAY_ROADS_JS`)."""
    return page.evaluate(DISPLAY_ROADS_JS)


def display_road_faults(page: Any, *, tv: bool) -> list[str]:
    """What keeps the display's roads from leading with the Big Road and showing each shoe
    honestly: the newest column out of view; columns off screen without a note saying how
    many (the "33 earlier columns" note, in any language), or a note with none off; a road's cells larger than the
    Big Road's; on a TV (``tv``), Big Road cells under 32 px or a derived road's under 16."""
    faults = []
    roads = display_roads(page)
    big = roads["big_road"]["cell"]
    for name, road in roads.items():
        if road["last"] < road["newest"]:
            faults.append(f"{name}: its newest column {road['newest']:.0f} out of view")
        off = int(road["first"])
        if off and not re.search(rf"(?<!\d){off}(?!\d)", road["note"]):  # in the page's language
            faults.append(f"{name}: {off} columns off screen, the note says {road['note']!r}")
        if not off and road["note"]:
            faults.append(f"{name}: none off screen, the note says {road['note']!r}")
        if road["cell"] > big + 0.5:
            faults.append(f"{name}: cells of {road['cell']:.1f} px, larger than the Big Road's {big:.1f}")
        least = BIG_ROAD_CELL if name == "big_road" else DERIVED_CELL if name != "bead_plate" else 0
        if tv and road["cell"] < least:
            faults.append(f"{name}: cells of {road['cell']:.1f} px, under {least}")
    return faults


# Points on a grid over the screen that land in a blank patch: on nothing shown (the page's
# own background, or a box that only holds a road whose board is narrower or lower than
# it), and so are the points 16 px either side and above and below (the gutters between
# areas are layout, not blank).
EMPTY_JS = """(step) => {
  const holders = '#display, #roads, .roads-top, .roads-derived, .road-slot, .road-frame, .road-box, '
      + '.roads-top > div, .roads-derived > div, #roads > .panel-head';
  const bare = (x, y) => { const el = document.elementFromPoint(x, y);
      return !el || el === document.body || el === document.documentElement || el.matches(holders); };
  const near = 16;
  let empty = 0, all = 0;
  for (let y = step / 2; y < innerHeight; y += step)
    for (let x = step / 2; x < innerWidth; x += step) {
      all++;
      if ([[0, 0], [near, 0], [-near, 0], [0, near], [0, -near]].every(([dx, dy]) => bare(x + dx, y + dy))) empty++;
    }
  return empty / all;
}"""


def empty_share(page: Any, step: int = 12) -> float:
    """The share of the screen left blank (:data:`EMPTY_JS`)."""
    return float(page.evaluate(EMPTY_JS, step))


# Each wall card's roads: the columns its viewBox leaves out on the left of the first mark
# the card drew, and the note it shows ("" when hidden).
WALL_ROADS_JS = """() => [...document.querySelectorAll('#lobby-grid .table-card svg.road')].map(svg => {
    const xs = [...svg.querySelectorAll('g path')].flatMap(p => (p.getAttribute('d').match(/-?[\\d.]+/g) || [])
        .filter((_, i) => i % 2 == 0).map(x => Math.floor(+x / 20)));
    return {table: svg.closest('.table-card').dataset.table, road: svg.id,
            left: xs.length ? svg.viewBox.baseVal.x / 20 - Math.min(...xs) : 0,
            note: svg.parentElement.dataset.earlier || ''};
})"""


def wall_roads_unsaid(page: Any) -> list[str]:
    """The wall's roads that leave columns out without a note saying how many, or say so
    with none left out (:data:`WALL_ROADS_JS`; the note in the page's language)."""
    return [
        f"{road['table']} {road['road']}"
        for road in page.evaluate(WALL_ROADS_JS)
        if (road["left"] > 0) != (road["left"] > 0 and str(round(road["left"])) in road["note"])
        or (road["left"] <= 0 and road["note"])
    ]
