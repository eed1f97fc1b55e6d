"""Card authentication's operations: the reveal at a shoe's end (a table's token), and a shoe's cards (public)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest
from ninja import Path, Router, Status

from .. import selectors, services
from ..api.bodies import LARGEST_SHOE
from ..api.core import BODY_ERRORS, READ_ERRORS, ErrorsOut, TableRequest, TableToken, _table
from ..api.schemas import CardsOut, RevealIn, ShoeEnvelope
from .selectors import shoe_cards as committed_cards

router = Router()


@router.post(
    "/tables/{slug}/shoes/{number}/reveal",
    auth=TableToken(),
    response={200: ShoeEnvelope, **BODY_ERRORS},
    summary="Reveal the cards no round revealed",
    description=(
        "Once an authenticated shoe has ended: the plaintexts of its burned cards and every card left after "
        "the last round, by card number. Each must match its card's public hash (422 naming it, and nothing "
        "is stored); a card revealed already with the same plaintext is left as it is. 409 while the shoe "
        "is open or for a plain shoe."
    ),
)
def shoe_reveal(
    request: TableRequest, slug: str, payload: RevealIn, number: int = Path(..., ge=1, le=LARGEST_SHOE)
) -> Status[dict[str, Any]]:
    shoe = services.shoe_reveal(table=request.auth, number=number, plaintexts=dict(payload.plaintexts))
    return Status(200, {"shoe": selectors.shoe_to_data(shoe)})


@router.get(
    "/tables/{slug}/shoes/{number}/cards",
    response={200: CardsOut, **READ_ERRORS, 422: ErrorsOut},
    summary="An authenticated shoe's cards",
    description=(
        "Every card's number and Public Hash Value from the start of the shoe, and its plaintext once revealed "
        "(never before). A plain shoe has none: an empty list, and no commitment."
    ),
)
def shoe_cards(
    request: HttpRequest, slug: str, number: int = Path(..., ge=1, le=LARGEST_SHOE)
) -> Status[dict[str, Any]]:
    shoe = selectors.shoe_find(table=_table(slug), which=str(number))
    if shoe is None:
        raise Http404(f"table {slug!r} has no shoe {number}")
    cards = committed_cards(shoe=shoe) if shoe.authenticated else []
    body = {"shoe": shoe.number, "authenticated": shoe.authenticated, "commitment": shoe.commitment or None}
    return Status(200, {**body, "cards": cards})
