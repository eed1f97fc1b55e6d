"""Template helpers for the reviewer statistics."""

from __future__ import annotations

from django import template

from ..game.review import ChiSquare, Frequencies

register = template.Library()

EVENT_NAMES = {
    "banker": "Banker",
    "player": "Player",
    "tie": "Tie",
    "player_pair": "Player pair",
    "banker_pair": "Banker pair",
    "natural": "Natural",
}


@register.filter
def event_name(event: str) -> str:
    return EVENT_NAMES.get(event, event)


@register.filter
def share(count: float, whole: int) -> str:
    return f"{100 * count / whole:.2f}%" if whole else "–"


@register.filter
def pvalue(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.2e}" if value < 0.001 else f"{value:.3f}"


@register.filter
def chi(test: ChiSquare | None) -> str:
    return "–" if test is None else f"{test.statistic:.2f} (df {test.df}), p = {pvalue(test.p_value)}"


@register.filter
def bpt(result: Frequencies) -> str:
    counts = {row.event: row.observed for row in result.rows}
    return f"{counts['banker']} · {counts['player']} · {counts['tie']}"
