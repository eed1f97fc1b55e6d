"""Template helpers for drawing cards and results."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext_lazy

from .. import labels
from ..game.authentication import PlaintextError, plaintext_card
from ..game.bets import BetType
from ..game.cards import Card
from ..game.odds import Event
from ..game.outcome import Winner
from ..game.validation import is_visible
from ..labels import decimal
from ..pages.road_labels import pattern_name

register = template.Library()


@register.inclusion_tag("tables/_hand.html")
def hand(cards: tuple[Card, ...], label: str, score: int | None, slots: int = 0) -> dict[str, object]:
    """A hand's cards and score; with ``slots``, as many empty places where its first two
    cards will go (a round being dealt keeps its shape as they come)."""
    return {"cards": cards, "label": label, "score": score, "slots": range(max(0, slots - len(cards)))}


@register.filter
def deal_words(dealing: dict[str, Any]) -> str:
    """What the rules decided so far in a round being dealt ("Player draws · Banker
    stands"), or whose the next card is before both hands have two cards."""
    if dealing["calls"]:
        return " · ".join(str(labels.CALL_WORDS[call]) for call in dealing["calls"])
    return str(labels.NEXT_CARD_WORDS[dealing["next"]]) if dealing["next"] else ""


@register.filter
def card_label(code: str) -> str:
    """``"TS"`` as ``"10♠"``."""
    return Card.parse(code).label


@register.filter
def plaintext_card_drawn(plaintext: str) -> Card | None:
    """The card a revealed plaintext names (only verified plaintexts are stored, so this
    is never None for a stored one)."""
    try:
        return plaintext_card(plaintext)
    except PlaintextError:
        return None


# Lazy: the words are looked up when a page is rendered, in its language.
CARD_STATES = {
    "burn_card": pgettext_lazy("card state", "burn card"),
    "burned": pgettext_lazy("card state", "burned"),
    "dealt": pgettext_lazy("card state", "dealt"),
    "unused": pgettext_lazy("card state", "not dealt"),
}


@register.filter
def card_state(state: str) -> str:
    return str(CARD_STATES.get(state, state))


@register.filter
def winner_name(winner: Winner | str) -> str:
    """``"Banker"`` for ``Winner.BANKER`` or its stored code ``"B"``, in the page's language."""
    return labels.winner_name(winner)


@register.filter
def winner_verdict(winner: Winner | str) -> str:
    """``"Banker wins"``, ``"Player wins"`` or ``"Tie"`` for a winner or its stored code."""
    return labels.winner_verdict(winner)


SIDE_BETS = {bet.value for bet in BetType} - {"player", "banker", "tie"}


@register.filter
def winning_bets(bets: dict[str, dict[str, object]], side_only: bool = False) -> list[str]:
    """``["Player 1:1", "Player Bonus 4:1"]`` for the bets a round paid."""
    return [
        f"{labels.bet_label(name)} {labels.pays_text(float(result['pays']))}"  # type: ignore[arg-type]
        for name, result in bets.items()
        if result["result"] == "win" and (not side_only or name in SIDE_BETS)
    ]


@register.filter
def percent(part: int, whole: int) -> str:
    return f"{decimal(100 * part / whole, 1)}%" if whole else "–"


@register.filter
def signed_percent(value: float | None, places: int = 3) -> str:
    """An expected return as a signed percentage: ``-1.058%``; a dash when unknown."""
    return labels.signed_percent(value, places)


@register.filter
def grouped(count: int) -> str:
    return number_format(count, force_grouping=True)


@register.filter
def six_places(value: Fraction | float) -> str:
    return decimal(float(value), 6)


@register.filter
def event_label(label: str) -> str:
    """A return table's row (``"Natural win"``, ``"Win by 4"``) in the page's language."""
    return labels.event_label(label)


@register.filter
def probability(event: Event, total: int) -> str:
    return decimal(event.count / total, 6)


@register.filter
def event_return(event: Event, total: int) -> str:
    return decimal(float(event.pays) * event.count / total, 6)


@register.filter
def rtp(value: Fraction) -> str:
    return f"{decimal(100 * float(value), 2)}%"


@register.filter
def payout(pays: Fraction) -> str:
    """What an event pays, written as everywhere (:func:`tables.labels.pays_text`)."""
    return labels.pays_text(pays)


@register.filter
def good_road_name(pattern: str) -> str:
    """A good road's name, in the page's language."""
    return pattern_name(pattern)


_JSON_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}  # as json_script


def _compact(trace: dict[str, Any]) -> dict[str, Any]:
    """A trace whose x counts up by one from some x0 as plotly's ``x0`` (its ``dx`` is 1
    unless told), left out when 0 (plotly's default): the same chart, without a number for
    every round."""
    x = trace.get("x")
    if not isinstance(x, list) or not x or not all(isinstance(v, int) and v == x[0] + i for i, v in enumerate(x)):
        return trace
    compact = {key: value for key, value in trace.items() if key != "x"}
    return (compact | {"x0": x[0]}) if x[0] else compact


@register.filter
def chart_json(figure: dict[str, Any], element_id: str) -> SafeString:
    """A chart's figure as ``json_script`` writes it, but compact: no spaces after ``,``
    and ``:``, and x values that count rounds as a start (:func:`_compact`); every
    round's push carries the charts."""
    figure = figure | {"data": [_compact(trace) for trace in figure["data"]]}
    text = json.dumps(figure, separators=(",", ":")).translate(_JSON_ESCAPES)
    return format_html('<script id="{}" type="application/json">{}</script>', element_id, mark_safe(text))


def figure_change(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """What turns the chart ``before`` into ``after``, both as :func:`chart_json` writes
    them, for static/js/live.js: ``data``, ``after``'s traces in order, each either whole
    (a line the chart did not draw) or ``{"=": its place in before}`` with the keys that changed (``+key``:
    values added at the end of a list that grew); and ``layout``, the layout's keys that
    changed (``{"~": ...}``: the keys that changed of an object). When every line gained
    one point, ``data`` is written shorter (:func:`_one_point_each`). None when a key of
    the layout went (the whole figure goes)."""
    if before["layout"].keys() - after["layout"].keys():
        return None
    old = {t.get("name"): (i, _compact(t)) for i, t in enumerate(before["data"])}
    traces = []
    for trace in (_compact(t) for t in after["data"]):
        place, was = old.get(trace.get("name"), (None, None))
        if was is None or place is None or was.keys() != trace.keys():
            traces.append(trace)
            continue
        change: dict[str, Any] = {"=": place}
        for key, value in trace.items():
            if value == was[key]:
                continue
            grew = isinstance(value, list) and isinstance(was[key], list) and value[: len(was[key])] == was[key]
            change |= {f"+{key}": value[len(was[key]) :]} if grew else {key: value}
        traces.append(change)
    return _one_point_each(traces) | {"layout": _changed(before["layout"], after["layout"])}


def _one_point_each(traces: list[dict[str, Any]]) -> dict[str, Any]:
    """``{"data": traces}``, or, when every line kept its place and gained one point, the
    points in order as ``{"+y": [...]}`` with any other change of a line as ``"set"``: a
    round's push to the odds chart adds a point to each of its fourteen lines, and this
    way each is a number, not a line's place and key around it."""
    if not traces or any(t.get("=") != place or len(t.get("+y", ())) != 1 for place, t in enumerate(traces)):
        return {"data": traces}
    rest = [{key: value for key, value in t.items() if key != "+y"} for t in traces]
    more = [t for t in rest if len(t) > 1]
    return {"+y": [t["+y"][0] for t in traces], **({"set": more} if more else {})}


def _changed(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """``after``'s keys whose values differ from ``before``'s; of an object with the same
    keys in both, only its keys that changed (static/js/live.js merges it in)."""
    changed: dict[str, Any] = {}
    for key, value in after.items():
        was = before.get(key)
        if was == value:
            continue
        if isinstance(was, dict) and isinstance(value, dict) and was.keys() == value.keys():
            changed[key] = {"~": _changed(was, value)}
        else:
            changed[key] = value
    return changed


@register.filter
def chart_update(figures: tuple[dict[str, Any], dict[str, Any]], element_id: str) -> SafeString:
    """A chart in a push to a page that shows it as ``figures[0]``: what changes it into
    ``figures[1]`` (``data-change``, applied by static/js/live.js), or the whole figure."""
    before, after = figures
    change = figure_change(before, after)
    if change is None:
        return chart_json(after, element_id)
    text = json.dumps(change, separators=(",", ":")).translate(_JSON_ESCAPES)
    return format_html('<script id="{}" type="application/json" data-change>{}</script>', element_id, mark_safe(text))


@register.filter
def dealer(name: str | None) -> SafeString:
    """A name a dealer system sent, isolated from the text around it (``<bdi>``: a
    right-to-left name reorders nothing beside it); "—" when it shows nothing."""
    if not name or not is_visible(name):
        return mark_safe("—")
    return format_html('<bdi dir="auto">{}</bdi>', name)
