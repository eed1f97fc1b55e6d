"""A round's receipt: what a player who asks about a round (seeds 000 and 002: "in case
of any questions or dispute it is required to indicate the round ID") is shown of it, on
the receipt page and in the API, found by its Transaction ID."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from ..authentication import selectors as authentication
from ..game.bets import BetType
from ..labels import bet_label, pays_text
from ..models import Round
from . import fragments, svg
from .road_data import roads_after

# Longer than any Transaction ID (16 characters) and shorter than the column (20); letters
# and digits only, so nothing else reaches the database (PostgreSQL refuses a NUL).
ROUND_ID = re.compile(r"[0-9A-Za-z]{1,20}")
# Crockford's base32 reads I and L as 1 and O as 0: an ID read aloud or copied by hand
# still finds its round.
_MISREAD = str.maketrans({"I": "1", "L": "1", "O": "0"})
RECEIPT_ROADS = ("bead_plate", "big_road")
# A bet's result as a receipt shows it (the API keeps the codes).
RESULTS = {
    "win": gettext_lazy("Win"),
    "lose": gettext_lazy("Lose"),
    "push": gettext_lazy("Push"),
    "unavailable": gettext_lazy("Not open"),
}


def canonical_round_id(text: str) -> str | None:
    """The Transaction ID that ``text`` spells (any case, I/L for 1, O for 0), or
    ``None`` when it cannot be one."""
    text = text.strip()
    return text.upper().translate(_MISREAD) if ROUND_ID.fullmatch(text) else None


def round_find(text: str) -> Round | None:
    """The round whose Transaction ID ``text`` is, as typed or as :func:`canonical_round_id`
    reads it; ``None`` when there is none."""
    canonical = canonical_round_id(text)
    if canonical is None:
        return None
    found = Round.objects.select_related("shoe__table").filter(round_id__in={text.strip(), canonical})
    return min(found, key=lambda r: r.round_id != text.strip(), default=None)  # the ID as typed first


@dataclass(frozen=True)
class BetLine:
    """One bet on a receipt: its name, result and what it paid per unit staked."""

    bet: str
    result: str
    status: str  # win, lose, push or unavailable (a CSS class)
    pays: str


def bet_lines(bets: dict[str, dict[str, Any]]) -> list[BetLine]:
    """Every bet of the round, in the seeds' order, as settled under the paytable in force."""
    lines = []
    for bet in BetType:
        settled = bets.get(bet.value)
        if settled is None:  # a bet the table did not have when the round was played
            continue
        status = str(settled["result"])
        result = RESULTS.get(status)
        shown = status if result is None else str(result)
        lines.append(BetLine(bet_label(bet), shown, status, pays_text(settled.get("pays"))))
    return lines


def receipt_context(round_: Round) -> dict[str, Any]:
    """The receipt page's context: the round, its bets, and the Bead Plate and Big Road
    as they stood after it, its mark outlined (a voided round made none)."""
    shoe = round_.shoe
    after = roads_after(shoe=shoe, number=round_.number)
    widths = {name: fragments.TABLE_ROADS[name] for name in RECEIPT_ROADS}
    return {
        "round": round_,
        "shoe": shoe,
        "table": shoe.table,
        "bets": bet_lines(round_.bets),
        "boards": svg.boards(after.roads, widths, marked=after.index_of(round_.number)),
        # An authenticated shoe's cards dealt to this round, with their plaintexts.
        "round_cards": (
            authentication.shoe_cards(shoe=shoe, rounds_from=round_.number, rounds_to=round_.number)
            if shoe.authenticated
            else []
        ),
    }
