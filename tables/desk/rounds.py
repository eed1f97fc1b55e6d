"""The reviewer's desk for one round (its admin page): what it shows, the form that
voids it, and the form that cancels a round still being dealt (a misdeal)."""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from roads.derived import CYCLES
from roads.engine import Roads

from .. import selectors
from ..game.bets import BetType
from ..game.cards import Card
from ..game.outcome import Winner
from ..labels import bet_label
from ..models import Round
from ..pages import receipts, svg
from ..pages import road_labels as labels
from ..pages.fragments import TABLE_ROADS
from ..pages.road_data import roads_after

# The admin's Transaction ID box reads an ID as the receipt does (any case, I and L as 1, O as 0).
round_find = receipts.round_find


class VoidForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Why these rounds are void, e.g. a card misread."),
    )


class CancelForm(forms.Form):
    """Cancel a round in progress: the reason is required (it is kept, with who and when),
    and ``round`` is the round the reviewer saw, and ``deal`` that very deal (a round
    cancelled is dealt again under its number), so that a confirm cancels that deal and
    not the next round, nor the same round dealt again, if either began meanwhile."""

    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Why the round is cancelled, e.g. a misdeal or a card exposed."),
    )
    round = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    deal = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


def cards_html(cards: tuple) -> str:
    """A hand's cards as admin lists show them, hearts and diamonds red (admin.css colours
    them for admin's light and dark themes)."""
    return mark_safe(" ".join(_card_html(card) for card in cards))  # each part escaped by format_html


@functools.cache
def _card_html(card: Card) -> SafeString:
    """One card's markup, made once: a list page shows about 250 (escaping each anew was a
    tenth of the page)."""
    return format_html("<span class='{}'>{}</span>", "suit-red" if card.suit.is_red else "suit-black", card.label)


def _odds_rows(odds: dict[str, Any]) -> list[tuple[str, float]]:
    """(bet, expected return per unit staked) of the odds stored after a round, the bet
    named in the page's language."""
    returns = odds.get("returns", {})
    rows = [(bet_label(bet), returns[bet.value]) for bet in BetType if bet.value in returns]
    if returns and odds.get("no_commission_banker") is not None:
        rows.append((_("Banker, no commission"), odds["no_commission_banker"]))
    return rows


class WhyMark(NamedTuple):
    road: str  # the derived road's title
    color: str  # "red" or "blue"
    words: str  # why, in seed 000's terms
    compared: str  # the Big Road cells it compared, "col,row" as drawn


def _why_marks(roads: Roads, index: int | None) -> list[WhyMark]:
    """Why each derived road marked this round red or blue, in the page's language."""
    if index is None:
        return []
    why = ((name, roads.comparison(name, index)) for name in CYCLES)
    return [
        WhyMark(labels.road_title(name), comparison.color.value, labels.comparison_words(comparison),
                " ".join(f"{col},{row}" for col, row in svg.compared_cells(roads, comparison)))
        for name, comparison in why
        if comparison is not None
    ]  # fmt: skip


def round_desk_context(round_: Round) -> dict[str, Any]:
    """What the round's page shows: its hands, every bet, the odds after it, the shoe's
    roads as they stood after it with this round marked, its neighbours and its history."""
    shoe = round_.shoe
    road_data = roads_after(shoe=shoe, number=round_.number)
    marked = road_data.index_of(round_.number)
    return {
        "round": round_,
        "shoe": shoe,
        "table": shoe.table,
        "winner": Winner(round_.winner),
        "bets": receipts.bet_lines(round_.bets or {}),
        "odds": round_.odds,
        "odds_rows": _odds_rows(round_.odds or {}),
        "boards": svg.boards(road_data.roads, TABLE_ROADS, whole=True, marked=marked),
        "why_marks": _why_marks(road_data.roads, marked),
        "previous": shoe.rounds.filter(number__lt=round_.number).order_by("-number").first(),
        "next": shoe.rounds.filter(number__gt=round_.number).order_by("number").first(),
        "events": selectors.round_audit_events(round_=round_),
    }
