"""Template helpers for the reviewer statistics."""

from __future__ import annotations

from django import template
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..game.review import ChiSquare, Frequencies

register = template.Library()

EVENT_NAMES = {
    "banker": gettext_lazy("Banker"),
    "player": gettext_lazy("Player"),
    "tie": gettext_lazy("Tie"),
    "player_pair": gettext_lazy("Player pair"),
    "banker_pair": gettext_lazy("Banker pair"),
    "natural": gettext_lazy("Natural"),
}


@register.filter
def event_name(event: str) -> str:
    return str(EVENT_NAMES.get(event, event))


@register.filter
def share(count: float, whole: int) -> str:
    # The number in the page's language's digits and decimal mark.
    return _("%(percent)s%%") % {"percent": formats.number_format(round(100 * count / whole, 2), 2)} if whole else "–"


@register.filter
def pvalue(value: float | str | None) -> str:
    # A test not run (no rounds in the range) has no p-value: the template then hands
    # over None or an empty string (a missing attribute).
    if not isinstance(value, int | float):
        return "–"
    return f"{value:.2e}" if value < 0.001 else f"{value:.3f}"


@register.filter
def chi(test: ChiSquare | None) -> str:
    if test is None:
        return "–"
    return _("%(statistic)s (df %(df)s), p = %(p)s") % {
        "statistic": formats.number_format(round(test.statistic, 2), 2),
        "df": test.df,
        "p": pvalue(test.p_value),
    }


@register.filter
def bpt(result: Frequencies) -> str:
    counts = {row.event: row.observed for row in result.rows}
    return f"{counts['banker']} · {counts['player']} · {counts['tie']}"
