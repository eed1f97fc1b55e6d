"""The roads' words in the page's language: road titles, good roads' names, and each
road said in a sentence for a screen reader.

The core (tables/pages/svg.py, roads/patterns.py) holds codes, English names and facts, and no
Django; this module words them with gettext, at render time, so a push rendered inside
``translation.override(lang)`` comes out in its pages' language.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from roads.derived import Comparison
from roads.entries import Color

from ..labels import WINNER_NAMES, winner_name
from .svg import BeadPlateFacts, BigRoadFacts, Board, DerivedFacts, RoadFacts

ROAD_TITLES: dict[str, Promise] = {
    "bead_plate": gettext_lazy("Bead Plate"),
    "big_road": gettext_lazy("Big Road"),
    "big_eye_road": gettext_lazy("Big Eye Road"),
    "small_road": gettext_lazy("Small Road"),
    "cockroach_road": gettext_lazy("Cockroach Road"),
}

# Each good road's name by its code (roads/patterns.py keeps the English and the Chinese
# names issue 21 gives, which the translators' catalogues take up).
PATTERN_NAMES: dict[str, Promise] = {
    "long_banker": gettext_lazy("Long Banker"),
    "long_player": gettext_lazy("Long Player"),
    "one_lounge_two_rooms_banker": gettext_lazy("1 Lounge 2 Rooms (Banker)"),
    "one_lounge_two_rooms_player": gettext_lazy("1 Lounge 2 Rooms (Player)"),
    "big_road_single": gettext_lazy("Big Road Single"),
    "consecutive_banker": gettext_lazy("Consecutive Banker"),
    "consecutive_player": gettext_lazy("Consecutive Player"),
    "clap_clap_road": gettext_lazy("Clap Clap Road"),
    "double_jump": gettext_lazy("Double Jump"),
    "banker_always_jumps": gettext_lazy("Banker Always Jumps"),
    "player_always_jumps": gettext_lazy("Player Always Jumps"),
    "slope_road": gettext_lazy("Slope Road"),
}
COLOR_NAMES: dict[Color, Promise] = {
    Color.RED: pgettext_lazy("derived road mark colour", "red"),
    Color.BLUE: pgettext_lazy("derived road mark colour", "blue"),
}


def road_title(name: str) -> str:
    """A road's title in the page's language (its code back for a name no road has)."""
    title = ROAD_TITLES.get(name)
    return name if title is None else str(title)


def pattern_name(key: str) -> str:
    """A good road's name in the page's language (its code back for an unknown one)."""
    name = PATTERN_NAMES.get(key)
    return key if name is None else str(name)


def road_words(board: Board) -> str:
    """The road in a sentence for a screen reader, in the page's language."""
    facts = board.alt
    return "" if facts is None else facts_words(facts)


def facts_words(facts: RoadFacts) -> str:
    if isinstance(facts, BeadPlateFacts):
        return _bead_plate_words(facts)
    if isinstance(facts, BigRoadFacts):
        return _big_road_words(facts)
    return _derived_words(facts)


def _bead_plate_words(facts: BeadPlateFacts) -> str:
    if facts.rounds == 0 or facts.last is None:
        return _("Bead Plate: no rounds yet.")
    banker_pairs = ngettext("%(count)s banker pair", "%(count)s banker pairs", facts.banker_pairs) % {
        "count": facts.banker_pairs
    }
    player_pairs = ngettext("%(count)s player pair", "%(count)s player pairs", facts.player_pairs) % {
        "count": facts.player_pairs
    }
    if facts.banker_pairs and facts.player_pairs:
        pairs = _("%(banker_pairs)s, %(player_pairs)s") % {"banker_pairs": banker_pairs, "player_pairs": player_pairs}
    elif facts.banker_pairs:
        pairs = banker_pairs
    elif facts.player_pairs:
        pairs = player_pairs
    else:
        pairs = _("no pairs")
    rounds = ngettext("%(count)s round", "%(count)s rounds", facts.rounds) % {"count": facts.rounds}
    return _(
        "Bead Plate: %(rounds)s, Banker %(banker)s, Player %(player)s, Tie %(tie)s; %(pairs)s; last round %(last)s."
    ) % {
        "rounds": rounds,
        "banker": facts.banker,
        "player": facts.player,
        "tie": facts.tie,
        "pairs": pairs,
        "last": WINNER_NAMES[facts.last],
    }


def _big_road_words(facts: BigRoadFacts) -> str:
    ties = ngettext("%(count)s tie", "%(count)s ties", facts.ties) % {"count": facts.ties}
    if facts.newest is None:
        if not facts.ties:
            return _("Big Road: no Banker or Player win yet.")
        return _("Big Road: no Banker or Player win yet, %(ties)s.") % {"ties": ties}
    columns = ngettext("%(count)s column", "%(count)s columns", facts.columns) % {"count": facts.columns}
    return _("Big Road: %(columns)s, %(ties)s; newest column %(winner)s, %(depth)s in a row.") % {
        "columns": columns,
        "ties": ties,
        "winner": WINNER_NAMES[facts.newest],
        "depth": facts.depth,
    }


def _derived_words(facts: DerivedFacts) -> str:
    title = road_title(facts.name)
    if facts.newest is None:
        return _("%(road)s: no marks yet.") % {"road": title}
    marks = ngettext("%(count)s mark", "%(count)s marks", facts.marks) % {"count": facts.marks}
    return _("%(road)s: %(marks)s, %(reds)s red, %(blues)s blue; newest %(colour)s.") % {
        "road": title,
        "marks": marks,
        "reds": facts.reds,
        "blues": facts.marks - facts.reds,
        "colour": COLOR_NAMES[facts.newest],
    }


__all__ = ["COLOR_NAMES", "PATTERN_NAMES", "ROAD_TITLES", "pattern_name", "road_title", "road_words", "winner_name"]


def comparison_words(comparison: Comparison) -> str:
    """Why a derived road's mark is red or blue, in seed 000's terms and the page's
    language; columns and rows counted from 1, as a reader counts them on the Big Road."""
    if comparison.new_column:
        nearer, further = (column + 1 for column in comparison.columns)
        if comparison.color is Color.RED:
            return _(
                "Red: a new column, so columns %(nearer)s and %(further)s are compared. "
                "They have the same depth (%(depth)s)."
            ) % {"nearer": nearer, "further": further, "depth": comparison.depths[0]}
        return _(
            "Blue: a new column, so columns %(nearer)s and %(further)s are compared. "
            "Their depths differ (%(nearer_depth)s and %(further_depth)s)."
        ) % {
            "nearer": nearer,
            "further": further,
            "nearer_depth": comparison.depths[0],
            "further_depth": comparison.depths[1],
        }
    place = {"column": comparison.columns[0] + 1, "row": comparison.rows[0] + 1}
    if comparison.color is Color.BLUE:
        return (
            _(
                "Blue: the same result again, so in column %(column)s the cell in row %(row)s and the one above it "
                "are compared. One is filled, the other blank."
            )
            % place
        )
    if comparison.filled[0]:
        return (
            _(
                "Red: the same result again, so in column %(column)s the cell in row %(row)s and the one above it "
                "are compared. Both are filled."
            )
            % place
        )
    return (
        _(
            "Red: the same result again, so in column %(column)s the cell in row %(row)s and the one above it "
            "are compared. Both are blank."
        )
        % place
    )
