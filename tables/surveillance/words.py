"""An alarm's evidence in words and figures, as a reviewer reads it: each figure the
checks gave (:class:`~tables.game.alarms.Finding`'s ``evidence``) under a label in the
reviewer's language, the common ones first and in a fixed order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from ..models import Alarm

# The figures most checks give, by their evidence key, in the order a reviewer reads them.
LABELS: dict[str, Promise] = {
    "test": gettext_lazy("Test"),
    "statistic": gettext_lazy("Statistic"),
    "p_value": gettext_lazy("p-value"),
    "rounds": gettext_lazy("Rounds"),
    "cards": gettext_lazy("Cards"),
}
MOST_LISTED = 24  # a long list of rounds or cards is cut, saying how many more


@dataclass(frozen=True)
class Fact:
    label: str
    value: str


def alarm_facts(alarm: Alarm) -> list[Fact]:
    """The alarm's evidence as labelled facts: the common figures first, then the rest
    of what its check gave, each under its key's words."""
    evidence: Mapping[str, object] = alarm.evidence if isinstance(alarm.evidence, dict) else {}
    ordered = [key for key in LABELS if key in evidence] + sorted(key for key in evidence if key not in LABELS)
    return [Fact(str(LABELS.get(key, key.replace("_", " ").capitalize())), figure(evidence[key])) for key in ordered]


def figure(value: object) -> str:
    """A figure as the reviewer reads it: a p-value in significant digits, a list as
    items (at most ``MOST_LISTED``), a mapping as ``key value`` pairs."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 0.001 or abs(value) >= 1e6 else number_format(round(value, 4))
    if isinstance(value, int):
        return number_format(value, force_grouping=True)
    if isinstance(value, list | tuple):
        shown = " ".join(figure(item) for item in value[:MOST_LISTED])
        return shown + (f" … (+{len(value) - MOST_LISTED})" if len(value) > MOST_LISTED else "")
    if isinstance(value, dict):
        return ", ".join(f"{key} {figure(item)}" for key, item in value.items())
    return str(value)
