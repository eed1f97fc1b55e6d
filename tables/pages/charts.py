"""Plotly figures for the game stats, drawn by plotly.js in the page.

Figures are plain dicts in plotly's JSON schema, built directly: every push renders
them again, and constructing ``plotly.graph_objects`` figures costs ~8 ms each and
embeds plotly.py's default template (~7 KB) in every push. The tests pass each
figure through ``plotly.graph_objects.Figure`` so the schema is still checked.

Their words (titles, legend, hover text) are gettext'ed when a figure is built, not
lazily: a figure is JSON, built while its page or push renders in the page's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..game.outcome import Winner
from ..game.stats import THEORETICAL_SHARES, ShoeStats
from ..labels import bet_label, winner_name

BANKER, PLAYER, TIE, GOLD, MUTED, GRID = "#d9342b", "#1f6fd1", "#1e9e4a", "#d8b35a", "#8fa39a", "#2a3d35"


# What every chart's layout shares, drawn in by static/js/charts.js (BASE_LAYOUT there,
# which must say the same): a push carries each chart, and need not carry these. A
# figure's own layout holds what differs, replacing a key whole.
BASE_LAYOUT: dict[str, Any] = {
    "paper_bgcolor": "rgba(0,0,0,0)",
    "plot_bgcolor": "rgba(0,0,0,0)",
    "font": {"color": "#eef3ef", "size": 12},
    "margin": {"l": 40, "r": 10, "t": 30, "b": 30},
    "height": 220,
    "showlegend": True,
    "legend": {"orientation": "h", "y": 1.18, "x": 0},
}


def shares_figure(stats: ShoeStats) -> dict[str, Any]:
    """This shoe's Banker / Player / Tie shares beside the theoretical 45.86 / 44.62 / 9.52 %.

    The shoe's bars are a trace per side, named for it, so that each legend swatch has
    its side's colour (one trace of three colours shows the first in its swatch: a red
    "This shoe" whatever the bar); ``offsetgroup`` keeps them in one slot beside the grey
    theoretical bars."""
    sides = (Winner.BANKER, Winner.PLAYER, Winner.TIE)
    colours = {Winner.BANKER: BANKER, Winner.PLAYER: PLAYER, Winner.TIE: TIE}
    counts = (stats.banker, stats.player, stats.tie)
    # To the tenth the bars' labels show: finer is never seen, only sent with every round.
    shoe = {w: round(100 * stats.share(n), 1) for w, n in zip(sides, counts, strict=True)}
    names = {w: winner_name(w) for w in sides}
    this_shoe = [
        {
            "type": "bar",
            "name": names[w],
            "offsetgroup": "shoe",
            "x": [names[w]],
            "y": [shoe[w]],
            "marker": {"color": colours[w]},
            # The label written by plotly from the bar's height, with the page's decimal
            # mark (static/js/charts.js sets the layout's separators): no label a push.
            "texttemplate": "%{y:.1f}%",
            # Above the bar and level: inside a narrow bar (a phone's) plotly turns it on its side.
            "textposition": "outside",
            "textangle": 0,
            "cliponaxis": False,
        }
        for w in sides
    ]
    theory = [round(100 * THEORETICAL_SHARES[w], 2) for w in sides]
    theoretical = {
        "type": "bar",
        "name": _("Theoretical"),
        "offsetgroup": "theory",
        "x": [names[w] for w in sides],
        "y": theory,
        "marker": {"color": MUTED},
        "opacity": 0.55,
    }
    # Room above the tallest bar for its label, under the legend; to the tenth the labels
    # show (57.9, not 57.925000000000004: every push sends it).
    top = round(max([*shoe.values(), *theory]) * 1.25, 1)
    layout = dict(barmode="group", yaxis={"ticksuffix": "%", "gridcolor": GRID, "range": [0, top]})
    return {"data": [*this_shoe, theoretical], "layout": layout}


def _round_title() -> str:
    return pgettext("chart axis: the round's number", "Round")


def running_figure(stats: ShoeStats) -> dict[str, Any]:
    """Banker wins minus Player wins, round by round across the shoe."""
    line = {
        "type": "scatter",
        "name": _("Banker − Player"),
        "x": list(range(1, stats.rounds + 1)),
        "y": list(stats.running),
        "mode": "lines",
        "line": {"color": GOLD, "width": 2, "shape": "hv"},
        "fill": "tozeroy",
        "fillcolor": "rgba(216,179,90,.15)",
    }
    running = [0, *stats.running]
    layout = dict(
        xaxis={"title": {"text": _round_title()}, "gridcolor": GRID, **_whole_ticks(stats.rounds)},
        yaxis={
            "zeroline": True,
            "zerolinecolor": MUTED,
            "gridcolor": GRID,
            **_whole_ticks(max(running) - min(running)),
        },
    )
    return {"data": [line], "layout": layout}


def _whole_ticks(span: int) -> dict[str, Any]:
    """Rounds and wins are counted whole: over a short span plotly would tick 0.5, 1.5…,
    so there a tick on each whole number; over longer ones plotly's own (whole) steps."""
    return {"tick0": 0, "dtick": 1} if span <= 8 else {}


ODDS_COLOURS = {"banker": BANKER, "player": PLAYER, "tie": TIE, "player_pair": GOLD}
# Told apart by the line's dash as well as its colour (and in the colour-blind theme).
ODDS_DASHES = {"banker": "solid", "player": "dash", "tie": "solid", "player_pair": "dot"}
# A side bet the chart draws because the odds table flags it as the player's edge now:
# its look in the flat-bet chart (a tint of its side's colour and a dash of its own), the
# Any Pair's dash changed from the Player Pair's here. No two lines look alike, so each
# flagged bet's line is the one its legend entry names.
EDGE_LOOKS = {"any_pair": (GOLD, "longdash")}
# Banker and Player returns lie a fraction of a percent apart (about -1.06 and -1.24 %)
# while Tie's and the pairs' lie near -14 % and -10 %: on one axis the first two are one
# line. They get the upper axis to themselves, the side bets the lower one.
MAIN_BETS = frozenset({"banker", "player"})


def odds_figure(
    points: list[tuple[int, dict[str, float]]], bets: list[tuple[str, str]], shown: Mapping[str, bool] | None = None
) -> dict[str, Any]:
    """Expected return of each bet (%) on the shoe left after each round; round 0 is
    the full shoe. ``bets`` are (key, label) pairs; Banker and Player on the upper axis,
    the other bets on the lower one. A bet in ``shown`` is drawn only while it says so
    (plotly's ``visible``), its line kept whole and hidden otherwise.

    A line carries only what sets it apart (name, points, colour and dash, axis): what
    every line shares (mode, width, hover text) is the layout's template's, sent once.
    A side bet's line is on the chart all shoe long, hidden until it becomes the player's
    edge: a round's push adds its point like any other line's, and showing it is a flag,
    where sending its every point in the round it joined would make that push the
    largest of the shoe."""
    # Two axes only when there are bets of both kinds to set apart.
    split = any(key in MAIN_BETS for key, _ in bets) and not all(key in MAIN_BETS for key, _ in bets)
    lines = [
        {
            "name": label,
            "x": [number for number, _ in points],
            "y": [_percent(returns.get(key)) for _, returns in points],
            "line": {"color": _odds_look(key)[0], "dash": _odds_look(key)[1]},
            "yaxis": "y2" if split and key not in MAIN_BETS else "y",
            **({"visible": shown[key]} if shown is not None and key in shown else {}),
        }
        for key, label in bets
    ]
    axis = {"ticksuffix": "%", "zeroline": True, "zerolinecolor": MUTED, "gridcolor": GRID, "nticks": 4}
    last = max((number for number, _ in points), default=0)
    xaxis = {"title": {"text": _round_title()}, "gridcolor": GRID, "rangemode": "tozero", **_whole_ticks(last)}
    margin = {**BASE_LAYOUT["margin"], "l": 64}  # room for each panel's own title
    shared = {"margin": margin, "template": _odds_lines()}
    drawn = [line for line in lines if line.get("visible", True)]  # the axes fit and name what is seen
    main = [line for line in drawn if line["yaxis"] == "y"]
    if not split:
        upper = _panel(axis, main, _panel_title(main), MAIN_SPAN if bets[0][0] in MAIN_BETS else SIDE_SPAN)
        return {"data": lines, "layout": {"height": 280, **shared, "xaxis": xaxis, "yaxis": upper}}
    side = [line for line in drawn if line["yaxis"] == "y2"]
    layout = {
        "height": 300,
        **shared,
        "xaxis": {**xaxis, "anchor": "y2"},
        "yaxis": {**_panel(axis, main, _panel_title(main), MAIN_SPAN), "domain": [0.58, 1]},
        "yaxis2": {**_panel(axis, side, _panel_title(side), SIDE_SPAN), "domain": [0, 0.42], "anchor": "x"},
    }
    return {"data": lines, "layout": layout}


def _odds_lines() -> dict[str, Any]:
    """What every line of the odds chart shares, as plotly's layout template: a scatter
    trace (plotly's default type) takes from it what it does not say itself."""
    # Translators: plotly's hover text; keep %{x} (the round) and %{y:.2f}% (the return) as they are.
    hover = _("after round %{x}: %{y:.2f}%")
    # The line's name beside the hover text, as each line's own <extra> said it before.
    line = {"mode": "lines", "line": {"width": 2.5}, "hovertemplate": f"{hover}<extra>%{{fullData.name}}</extra>"}
    return {"data": {"scatter": [line]}}


def _percent(share: float | None) -> float | None:
    """A return in percent to the hundredth the hover shows (%{y:.2f}, :func:`_odds_lines`):
    finer is never seen, only sent. None (a gap) where a round's odds lack the bet."""
    return None if share is None else round(100 * share, 2)


def _odds_look(key: str) -> tuple[str, str]:
    """A bet's line on the odds chart: (colour, dash)."""
    if key in ODDS_COLOURS:
        return ODDS_COLOURS[key], ODDS_DASHES[key]
    return EDGE_LOOKS.get(key) or FLAT_BET_LOOKS.get(key, (MUTED, "dashdot"))


# The least a panel of the odds chart spans, in percentage points: a shoe moves Banker's
# and Player's returns by tenths of a point, which drawn edge to edge look like swings.
MAIN_SPAN, SIDE_SPAN = 1.0, 10.0


def _panel_title(lines: list[dict[str, Any]]) -> str:
    return " · ".join(line["name"] for line in lines)


def _panel(axis: dict[str, Any], lines: list[dict[str, Any]], title: str, span: float) -> dict[str, Any]:
    """A panel's axis: titled with what it draws, its range the lines' with a margin, and
    never narrower than ``span``."""
    values = [y for line in lines for y in line["y"] if y is not None] or [0.0]
    low, high = min(values), max(values)
    middle, half = (low + high) / 2, max(span, (high - low) * 1.2) / 2
    # To a thousandth of a point, a tenth of a pixel on the narrowest panel: every push sends it.
    ends = [round(middle - half, 3), round(middle + half, 3)]
    return {**axis, "title": {"text": title, "font": {"size": 11}}, "range": ends}


def observed_expected_figure(
    labels: list[str], observed: list[int], expected: list[float], *, x_title: str
) -> dict[str, Any]:
    """Observed counts as bars beside the expected counts."""
    bars = [
        {"type": "bar", "name": _("Observed"), "x": labels, "y": observed, "marker": {"color": GOLD}},
        {
            "type": "bar",
            "name": _("Expected"),
            "x": labels,
            "y": [round(v, 2) for v in expected],
            "marker": {"color": MUTED},
            "opacity": 0.6,
        },
    ]
    layout = dict(barmode="group", xaxis={"title": {"text": x_title}, "type": "category"}, yaxis={"gridcolor": GRID})
    return {"data": bars, "layout": layout}


# Each bet's line in the flat-bet chart: Banker, Player and Tie in the seeds' colours,
# solid and bold; a side bet in a tint of its side's colour (a Banker Pair reddish, a
# Player Bonus bluish; the pairs of both sides gold, Lucky Six violet), each of a family
# told apart by its dash. No two lines look alike.
BANKER_TINT, PLAYER_TINT, VIOLET = "#f08a84", "#7fb2f0", "#b48ae0"
FLAT_BET_LOOKS: dict[str, tuple[str, str]] = {
    "banker": (BANKER, "solid"),
    "player": (PLAYER, "solid"),
    "tie": (TIE, "solid"),
    "banker_pair": (BANKER_TINT, "dot"),
    "banker_natural": (BANKER_TINT, "dash"),
    "banker_bonus": (BANKER_TINT, "dashdot"),
    "player_pair": (PLAYER_TINT, "dot"),
    "player_natural": (PLAYER_TINT, "dash"),
    "player_bonus": (PLAYER_TINT, "dashdot"),
    "any_pair": (GOLD, "dot"),
    "perfect_pair": (GOLD, "dash"),
    "lucky_six": (VIOLET, "solid"),
    "two_cards_lucky_six": (VIOLET, "dot"),
    "three_cards_lucky_six": (VIOLET, "dash"),
}
MAIN_LINES = frozenset({"banker", "player", "tie"})


def flat_bets_figure(x: list[int], curves: dict[str, list[float]]) -> dict[str, Any]:
    """Units won or lost by one unit on every round, one line per bet (``curves`` by the
    bet's key), named in the page's language."""
    lines = []
    for bet, y in curves.items():
        colour, dash = FLAT_BET_LOOKS.get(bet, (MUTED, "longdash"))
        width = 3 if bet in MAIN_LINES else 1.8
        line = {"color": colour, "dash": dash, "width": width}
        lines.append({"type": "scatter", "mode": "lines", "name": bet_label(bet), "x": x, "y": y, "line": line})
    units = pgettext("chart axis: betting units won or lost", "Units")
    layout = dict(
        height=360,
        xaxis={"title": {"text": pgettext("chart axis: rounds played", "Rounds")}, "gridcolor": GRID},
        yaxis={"title": {"text": units}, "zeroline": True, "zerolinecolor": MUTED, "gridcolor": GRID},
        legend={"orientation": "v", "x": 1.02, "y": 1},
        meta={"phone": "small-multiples"},  # 14 lines do not read on a phone: one small chart a bet there (charts.js)
    )
    return {"data": lines, "layout": layout}
