"""Plotly figures for the game stats, built server-side and drawn by plotly.js."""

from __future__ import annotations

import json
from typing import Any

import plotly.graph_objects as go

from .game.outcome import Winner
from .game.stats import THEORETICAL_SHARES, ShoeStats

BANKER, PLAYER, TIE, GOLD, MUTED = "#d9342b", "#1f6fd1", "#1e9e4a", "#d8b35a", "#8fa39a"
LAYOUT: dict[str, Any] = {
    "paper_bgcolor": "rgba(0,0,0,0)",
    "plot_bgcolor": "rgba(0,0,0,0)",
    "font": {"color": "#eef3ef", "size": 12},
    "margin": {"l": 40, "r": 10, "t": 30, "b": 30},
    "height": 220,
    "showlegend": True,
    "legend": {"orientation": "h", "y": 1.18, "x": 0},
}


def _plain(figure: go.Figure) -> dict[str, Any]:
    return json.loads(figure.to_json())  # type: ignore[no-any-return]


def shares_figure(stats: ShoeStats) -> dict[str, Any]:
    """This shoe's Banker / Player / Tie shares beside the theoretical 45.86 / 44.62 / 9.52 %."""
    names = ["Banker", "Player", "Tie"]
    shoe = [100 * stats.share(n) for n in (stats.banker, stats.player, stats.tie)]
    theory = [100 * THEORETICAL_SHARES[w] for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE)]
    figure = go.Figure(
        [
            go.Bar(
                name="This shoe",
                x=names,
                y=shoe,
                marker_color=[BANKER, PLAYER, TIE],
                text=[f"{v:.1f}%" for v in shoe],
                textposition="outside",
                cliponaxis=False,
            ),
            go.Bar(
                name="Theoretical",
                x=names,
                y=theory,
                marker_color=MUTED,
                opacity=0.55,
                hovertemplate="%{y:.2f}%<extra>Theoretical</extra>",
            ),
        ]
    )
    figure.update_layout(barmode="group", yaxis={"ticksuffix": "%", "gridcolor": "#2a3d35"}, **LAYOUT)
    return _plain(figure)


def running_figure(stats: ShoeStats) -> dict[str, Any]:
    """Banker wins minus Player wins, round by round across the shoe."""
    rounds = list(range(1, stats.rounds + 1))
    line = go.Scatter(x=rounds, y=list(stats.running), mode="lines", name="Banker − Player")
    line.update(line={"color": GOLD, "width": 2, "shape": "hv"}, fill="tozeroy", fillcolor="rgba(216,179,90,.15)")
    figure = go.Figure(line)
    figure.update_layout(
        xaxis={"title": "Round", "gridcolor": "#2a3d35"}, yaxis={"zeroline": True, "zerolinecolor": MUTED}, **LAYOUT
    )
    return _plain(figure)
