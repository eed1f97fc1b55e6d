"""The game-stats charts are plain plotly figures: plotly's own schema must accept them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import plotly.graph_objects as go
import pytest
from plotly.offline import get_plotlyjs_version

from tables.game.bets import BetType
from tables.game.outcome import PlayedRound, Winner
from tables.game.stats import shoe_stats
from tables.pages import charts
from tables.templatetags.cards import chart_json, figure_change

B, P, T = Winner.BANKER, Winner.PLAYER, Winner.TIE
STATS = shoe_stats(PlayedRound(winner=w) for w in (B, B, P, T, B))


@pytest.mark.parametrize("build", [charts.shares_figure, charts.running_figure])
def test_each_chart_is_a_valid_plotly_figure(build) -> None:
    figure = build(STATS)
    go.Figure(figure)  # raises ValueError on any property plotly does not know
    go.Figure(figure | {"layout": charts.BASE_LAYOUT | figure["layout"]})  # as the page draws it


def test_the_page_draws_every_chart_on_the_layout_the_server_names() -> None:
    # A push leaves out what every chart's layout shares: static/js/charts.js puts it back.
    script = (Path(__file__).resolve().parents[2] / "static/js/charts.js").read_text()
    found = re.search(r"var BASE_LAYOUT = (\{.*?\});", script, re.S)
    assert found, "no BASE_LAYOUT in charts.js"
    as_json = re.sub(r"(\w+):", r'"\1":', found.group(1)).replace(",\n  }", "}")
    assert json.loads(re.sub(r",\s*}", "}", as_json)) == charts.BASE_LAYOUT


def test_the_shares_chart_sets_the_shoe_beside_the_theoretical_45_86_44_62_9_52() -> None:
    *shoe, theory = charts.shares_figure(STATS)["data"]
    assert [bar["y"] for bar in shoe] == [[60.0], [20.0], [20.0]]
    assert theory["y"] == [45.86, 44.62, 9.52]


def test_each_legend_swatch_of_the_shares_chart_has_one_colour_its_sides() -> None:
    # Plotly's swatch for a trace of several colours shows its first: "This shoe" was red.
    *shoe, theory = charts.shares_figure(STATS)["data"]
    assert [(bar["name"], bar["marker"]["color"]) for bar in shoe] == [
        ("Banker", charts.BANKER), ("Player", charts.PLAYER), ("Tie", charts.TIE)
    ]  # fmt: skip
    assert all(bar["offsetgroup"] == "shoe" for bar in shoe) and theory["offsetgroup"] == "theory"
    assert isinstance(theory["marker"]["color"], str) and theory["name"] == "Theoretical"


def test_the_running_chart_counts_banker_minus_player_round_by_round() -> None:
    [line] = charts.running_figure(STATS)["data"]
    assert line["x"] == [1, 2, 3, 4, 5] and line["y"] == [1, 2, 1, 1, 2]


def test_a_bad_property_would_be_caught() -> None:
    figure = charts.running_figure(STATS)
    figure["data"][0]["colour"] = "red"
    with pytest.raises(ValueError):
        go.Figure(figure)


def test_the_odds_chart_draws_each_bets_return_in_percent_from_the_full_shoe_on() -> None:
    points = [(0, {"banker": -0.010579, "tie": -0.143596}), (1, {"banker": -0.0104, "tie": -0.1441})]
    figure = charts.odds_figure(points, [("banker", "Banker"), ("tie", "Tie")])
    go.Figure(figure)
    banker, tie = figure["data"]
    # To the hundredth of a point the hover writes (%{y:.2f}): finer would be sent, never shown.
    assert banker["x"] == [0, 1] and banker["y"] == [-1.06, -1.04] and tie["name"] == "Tie"


def test_banker_and_player_returns_have_an_axis_of_their_own_and_differ_in_dash_as_well_as_colour() -> None:
    points = [(0, {"banker": -0.010579, "player": -0.012351, "tie": -0.143596, "player_pair": -0.103614})]
    bets = [("banker", "Banker"), ("player", "Player"), ("tie", "Tie"), ("player_pair", "Player pair")]
    figure = charts.odds_figure(points, bets)
    go.Figure(figure)
    lines = {line["name"]: line for line in figure["data"]}
    assert lines["Banker"]["yaxis"] == lines["Player"]["yaxis"] == "y"
    assert lines["Tie"]["yaxis"] == lines["Player pair"]["yaxis"] == "y2"
    assert lines["Banker"]["line"]["dash"] != lines["Player"]["line"]["dash"]
    assert lines["Banker"]["line"]["color"] != lines["Player"]["line"]["color"]
    upper, lower = figure["layout"]["yaxis"]["domain"], figure["layout"]["yaxis2"]["domain"]
    assert lower[1] < upper[0]  # one above the other, not overlapping
    assert figure["layout"]["xaxis"]["anchor"] == "y2"  # the rounds along the bottom


def test_the_review_charts_are_valid_plotly_figures() -> None:
    go.Figure(charts.observed_expected_figure(["1", "2+"], [3, 1], [2.5, 1.5], x_title="Streak length"))
    go.Figure(charts.flat_bets_figure([1, 2], {"banker": [0.95, 1.9]}))


def test_early_in_a_shoe_the_banker_minus_player_chart_ticks_whole_rounds_and_wins_only() -> None:
    early = charts.running_figure(shoe_stats([PlayedRound(winner=Winner.BANKER)] * 2))
    assert early["layout"]["xaxis"]["dtick"] == early["layout"]["yaxis"]["dtick"] == 1
    late = charts.running_figure(shoe_stats([PlayedRound(winner=Winner.BANKER)] * 40))
    assert "dtick" not in late["layout"]["xaxis"] and "dtick" not in late["layout"]["yaxis"]  # plotly's steps: 10, 20…


def test_the_odds_chart_ticks_whole_rounds_from_its_first_point() -> None:
    opening = charts.odds_figure([(0, {"banker": -0.0106})], [("banker", "Banker")])
    assert opening["layout"]["xaxis"]["dtick"] == 1  # 0 and 1, not 0, 0.5 written "1", 1


def test_no_two_of_the_fourteen_flat_bet_lines_look_alike_and_the_three_are_in_the_seeds_colours() -> None:
    figure = charts.flat_bets_figure([1], {bet.value: [0.0] for bet in BetType})
    looks = {line["name"]: (line["line"]["color"], line["line"]["dash"]) for line in figure["data"]}
    assert len(set(looks.values())) == 14
    assert looks["Banker"] == (charts.BANKER, "solid") and looks["Player"] == (charts.PLAYER, "solid")
    assert looks["Tie"] == (charts.TIE, "solid")
    # The pairs the probe found alike: a side bet never takes a main bet's look.
    assert looks["Player Bonus"] != looks["Player"] and looks["Lucky Six"] != looks["Banker"]
    assert {colour for colour, _ in looks.values()}.isdisjoint({charts.MUTED})  # every bet has its own


def test_each_panel_of_the_odds_chart_names_what_it_draws_on_an_axis_of_its_own_and_a_sensible_span() -> None:
    points = [
        (n, {"banker": -0.0106 + n * 1e-5, "player": -0.0124 - n * 1e-5, "tie": -0.1436 + n * 1e-4,
             "player_pair": -0.1036})
        for n in range(5)
    ]  # fmt: skip
    bets = [("banker", "Banker"), ("player", "Player"), ("tie", "Tie"), ("player_pair", "Player Pair")]
    layout = charts.odds_figure(points, bets)["layout"]
    upper, lower = layout["yaxis"], layout["yaxis2"]
    assert upper["title"]["text"] == "Banker · Player" and lower["title"]["text"] == "Tie · Player Pair"
    assert round(upper["range"][1] - upper["range"][0], 3) >= 1.0, "tenths of a point do not fill the panel"
    assert round(lower["range"][1] - lower["range"][0], 3) >= 10.0
    assert upper["range"][0] <= -1.244 and upper["range"][1] >= -1.06  # every line inside its panel
    assert lower["range"][0] <= -14.36 and lower["range"][1] >= -10.36


def test_the_shares_chart_writes_its_percentages_level_above_the_bars() -> None:
    figure = charts.shares_figure(shoe_stats([PlayedRound(winner=Winner.BANKER)] * 3))
    for bar in figure["data"][:3]:
        assert bar["textangle"] == 0 and bar["textposition"] == "outside"


def test_a_round_changes_only_the_shares_bars_heights_to_the_tenth_their_labels_show() -> None:
    banker, player = PlayedRound(winner=Winner.BANKER), PlayedRound(winner=Winner.PLAYER)
    two, three = shoe_stats([banker, player]), shoe_stats([banker, player, banker])
    before, after = charts.shares_figure(two), charts.shares_figure(three)
    assert [bar["y"] for bar in after["data"][:3]] == [[66.7], [33.3], [0.0]]
    assert all(bar["texttemplate"] == "%{y:.1f}%" for bar in after["data"][:3])  # plotly writes the label
    change = figure_change(before, after)
    assert change is not None and {key for trace in change["data"] for key in trace} <= {"=", "y"}


# The pages load plotly.js's official "basic" bundle (scatter, bar, pie: a quarter of the
# full bundle's weight), from our own static files.
BASIC_BUNDLE = Path(__file__).resolve().parents[2] / "static" / "plotly" / "plotly-basic.min.js"
BASIC_TRACES = {"scatter", "bar", "pie"}


def test_the_served_plotly_bundle_is_the_plotly_js_that_plotly_writes_figures_for() -> None:
    banner = BASIC_BUNDLE.read_text()[:200]
    assert f"plotly.js (basic - minified) v{get_plotlyjs_version()}" in banner


def test_every_chart_draws_only_traces_the_basic_bundle_has() -> None:
    figures = [
        charts.shares_figure(STATS),
        charts.running_figure(STATS),
        charts.odds_figure([(0, {"banker": -0.01})], [("banker", "Banker")]),
        charts.observed_expected_figure(["1", "2+"], [3, 1], [2.5, 1.5], x_title="Streak length"),
        charts.flat_bets_figure([1, 2], {"banker": [0.95, 1.9]}),
    ]
    # A trace that names no type is plotly's default, a scatter (the odds chart's lines).
    assert {trace.get("type", "scatter") for figure in figures for trace in figure["data"]} <= BASIC_TRACES


def test_the_charts_words_come_from_gettext_in_the_language_they_are_built_in() -> None:
    from django.utils import translation

    stats = shoe_stats([PlayedRound(winner=Winner.BANKER), PlayedRound(winner=Winner.PLAYER)])
    with translation.override("en"):
        shares, running = charts.shares_figure(stats), charts.running_figure(stats)
        odds = charts.odds_figure([(0, {"banker": -0.0106})], [("banker", "Banker")])
        flat = charts.flat_bets_figure([1], {"banker": [0.95]})
        seen = charts.observed_expected_figure(["1"], [1], [1.0], x_title="Streak length")
    assert [trace["name"] for trace in shares["data"]] == ["Banker", "Player", "Tie", "Theoretical"]
    assert shares["data"][-1]["x"] == ["Banker", "Player", "Tie"]
    assert running["data"][0]["name"] == "Banker − Player" and running["layout"]["xaxis"]["title"]["text"] == "Round"
    [lines] = odds["layout"]["template"]["data"]["scatter"]  # every line's, each naming itself
    assert lines["hovertemplate"] == "after round %{x}: %{y:.2f}%<extra>%{fullData.name}</extra>"
    assert odds["layout"]["xaxis"]["title"]["text"] == "Round"
    assert [flat["layout"][axis]["title"]["text"] for axis in ("xaxis", "yaxis")] == ["Rounds", "Units"]
    assert [trace["name"] for trace in seen["data"]] == ["Observed", "Expected"]
    with translation.override("zh-hans"):  # built again in another language: plain JSON-ready strings still
        assert all(isinstance(trace["name"], str) for trace in charts.shares_figure(stats)["data"])


def applied(page_json: str, change: dict) -> dict:
    """A pushed change merged into the figure a page keeps, as static/js/live.js does."""
    figure = json.loads(page_json)

    def merge(into: dict, keys: dict) -> None:
        for key, value in keys.items():
            if isinstance(value, dict) and "~" in value:
                merge(into[key], value["~"])
            else:
                into[key] = value

    def grown(was: dict, trace: dict) -> dict:
        for key, value in trace.items():
            if key.startswith("+"):
                was[key[1:]] = was[key[1:]] + value
            elif key != "=":
                was[key] = value
        return was

    if "+y" in change:  # every line kept its place and gained one point; "set": its other changes
        for line, point in zip(figure["data"], change["+y"], strict=True):
            line["y"] = [*line["y"], point]
        for trace in change.get("set", []):
            grown(figure["data"][trace["="]], trace)
        merge(figure["layout"], change["layout"])
        return figure
    traces = []
    for trace in change["data"]:
        if "=" not in trace:
            traces.append(trace)
            continue
        traces.append(grown(figure["data"][trace["="]], trace))
    figure["data"] = traces
    merge(figure["layout"], change["layout"])
    return figure


def page_figure(figure: dict, element: str) -> str:
    """The figure's JSON as a page keeps it (the text of its script element)."""
    return re.sub(r"^<script[^>]*>|</script>$", "", str(chart_json(figure, element)))


LOOK_OF_PERFECT_PAIR = {"line": {"color": charts.GOLD, "dash": "dash"}, "yaxis": "y2"}


def test_a_line_of_the_odds_chart_carries_only_what_sets_it_apart_and_the_layout_what_all_share() -> None:
    points = [(n, {"banker": -0.0106, "tie": -0.1436, "perfect_pair": -0.13029 + n / 100}) for n in range(3)]
    figure = charts.odds_figure(points, [("banker", "Banker"), ("tie", "Tie"), ("perfect_pair", "Perfect Pair")])
    *_, perfect_pair = figure["data"]
    hundredths = [-13.03, -12.03, -11.03]  # the hover's %{y:.2f}: finer is sent, never shown
    assert perfect_pair == {"name": "Perfect Pair", "x": [0, 1, 2], "y": hundredths, **LOOK_OF_PERFECT_PAIR}
    drawn = go.Figure(figure)  # as plotly reads it: each line a scatter, drawn as the template says
    assert {line.type for line in drawn.data} == {"scatter"}
    [shared] = drawn.layout.template.data.scatter
    assert (shared.mode, shared.line.width) == ("lines", 2.5)
    assert shared.hovertemplate.endswith("<extra>%{fullData.name}</extra>")  # each line's own name
    # The axes' ends to a thousandth of a point: never 57.925000000000004 in a push.
    ends = [end for axis in ("yaxis", "yaxis2") for end in figure["layout"][axis]["range"]]
    assert all(round(end, 3) == end for end in ends), ends


def test_a_side_bet_not_the_players_edge_has_its_line_hidden_and_out_of_its_panels_title_and_range() -> None:
    points = [(n, {"banker": -0.0106, "tie": -0.1436, "lucky_six": -0.2 + n / 10}) for n in range(3)]
    bets = [("banker", "Banker"), ("tie", "Tie"), ("lucky_six", "Lucky Six")]
    hidden = charts.odds_figure(points, bets, {"lucky_six": False})
    go.Figure(hidden)
    assert hidden["data"][2]["visible"] is False and hidden["data"][2]["y"] == [-20.0, -10.0, 0.0]  # kept whole
    assert hidden["layout"]["yaxis2"]["title"]["text"] == "Tie" and hidden["layout"]["yaxis2"]["range"][0] > -20
    shown = charts.odds_figure(points, bets, {"lucky_six": True})
    assert shown["data"][2]["visible"] is True and shown["layout"]["yaxis2"]["title"]["text"] == "Tie · Lucky Six"


def test_a_round_adds_each_lines_point_and_shows_a_hidden_line_by_a_flag_not_its_points() -> None:
    bets = [("banker", "Banker"), ("tie", "Tie"), ("lucky_six", "Lucky Six")]
    points = [(n, {"banker": -0.0106 + n / 1e4, "tie": -0.14, "lucky_six": -0.2 + n / 100}) for n in range(40)]
    before = charts.odds_figure(points, bets, {"lucky_six": False})
    after = charts.odds_figure(
        [*points, (40, {"banker": -0.01, "tie": -0.14, "lucky_six": 0.05})], bets, {"lucky_six": True}
    )
    change = figure_change(before, after)
    assert change is not None
    assert change["+y"] == [-1.0, -14.0, 5.0] and change["set"] == [{"=": 2, "visible": True}]
    assert json.loads(page_figure(after, "chart-odds")) == applied(page_figure(before, "chart-odds"), change)
    assert len(json.dumps(change["+y"]) + json.dumps(change["set"])) < 60, "a number a line, and a flag"


def test_the_shares_chart_sends_its_axis_to_the_tenth_its_labels_show() -> None:
    stats = shoe_stats(PlayedRound(winner=w) for w in [B] * 19 + [P] * 15 + [T] * 7)  # Banker 46.34 %
    top = charts.shares_figure(stats)["layout"]["yaxis"]["range"][1]  # with a quarter more room above
    assert top == 57.9, "not 57.925000000000004"


def test_a_push_changes_a_chart_by_its_new_points_and_changed_values_into_the_figure_whole() -> None:
    before_points = [(n, {"banker": -0.0106 + n / 1e4, "tie": -0.14 - n / 1e3}) for n in range(40)]
    after_points = [*before_points, (40, {"banker": -0.02, "tie": 0.05, "perfect_pair": 0.3})]
    before = charts.odds_figure(before_points, [("banker", "Banker"), ("tie", "Tie")])
    bets = [("banker", "Banker"), ("tie", "Tie"), ("perfect_pair", "Perfect Pair")]
    after = charts.odds_figure(
        [(n, p | {"perfect_pair": -0.13}) for n, p in after_points[:-1]] + after_points[-1:], bets
    )
    change = figure_change(before, after)
    assert change is not None
    assert change["data"][0] == {"=": 0, "+y": [-2.0]}  # one point more on a line the page has
    # A line it had not: whole, and nothing every line shares.
    assert change["data"][2] == {"name": "Perfect Pair", "y": [-13.0] * 40 + [30.0], **LOOK_OF_PERFECT_PAIR}
    assert json.loads(page_figure(after, "chart-odds")) == applied(page_figure(before, "chart-odds"), change)
    for build in (charts.shares_figure, charts.running_figure):
        old, new = build(STATS), build(shoe_stats(PlayedRound(winner=w) for w in (B, B, P, T, B, P)))
        moved = figure_change(old, new)
        assert moved is not None and json.loads(page_figure(new, "c")) == applied(page_figure(old, "c"), moved)
