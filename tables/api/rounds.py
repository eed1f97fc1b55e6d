"""Rounds: recorded (a table's token), listed, looked up by Transaction ID; the roads of a shoe."""

from __future__ import annotations

import re
from typing import Annotated, Any

from django.http import Http404, HttpRequest
from ninja import Path, Query, Router, Status
from pydantic import WithJsonSchema

from .. import selectors, services
from ..operations.metrics import ROUND_SECONDS
from ..pages import receipts
from ..pages import road_data as road_selectors
from .bodies import LARGEST_SHOE
from .core import BODY_ERRORS, READ_ERRORS, ErrorsOut, TableRequest, TableToken, _table
from .schemas import ReceiptEnvelope, RoundEnvelope, RoundIn, RoundsOut

router = Router()


@router.post(
    "/tables/{slug}/rounds",
    auth=TableToken(),
    response={200: RoundEnvelope, 201: RoundEnvelope, **BODY_ERRORS},
    summary="Record a round",
    description=(
        "201 with the round; 200 with the same body when an identical round is replayed; "
        "409 when no shoe is open or the number is not the next one or was recorded with other cards; "
        "422 for any invalid input, naming the field; 413 for a body over the size limit; "
        "415 for a body not sent as JSON in UTF-8; 401 for a missing or wrong token, and 429 "
        "(with Retry-After) after too many of those from one address."
    ),
)
def round_create(request: TableRequest, slug: str, payload: RoundIn) -> Status[dict[str, Any]]:
    with ROUND_SECONDS.time():
        return _round_create(request, payload)


def _round_create(request: TableRequest, payload: RoundIn) -> Status[dict[str, Any]]:
    recorded = services.round_record(
        table=request.auth,
        player=payload.player,
        banker=payload.banker,
        number=payload.round,
        dealer=payload.dealer,
        plaintexts=list(payload.plaintexts) if payload.plaintexts is not None else None,
    )
    return Status(201 if recorded.created else 200, {"round": selectors.round_to_data(recorded.round)})


@router.get("/tables/{slug}/roads", response={200: dict, **READ_ERRORS}, summary="Roads of the current shoe")
def roads_current(request: HttpRequest, slug: str) -> Status[dict[str, Any]]:
    shoe = selectors.shoe_find(table=_table(slug), which="current")
    return Status(200, road_selectors.shoe_roads(shoe=shoe).roads.to_data())


@router.get(
    "/tables/{slug}/shoes/{number}/roads",
    response={200: dict, **READ_ERRORS, 422: ErrorsOut},
    summary="Roads of a shoe",
)
def roads_of_shoe(
    request: HttpRequest, slug: str, number: int = Path(..., ge=1, le=LARGEST_SHOE)
) -> Status[dict[str, Any]]:
    shoe = selectors.shoe_find(table=_table(slug), which=str(number))
    if shoe is None:
        raise Http404(f"table {slug!r} has no shoe {number}")
    return Status(200, road_selectors.shoe_roads(shoe=shoe).roads.to_data())


SHOE_QUERY = re.compile(r"current|[1-9][0-9]{0,8}")


@router.get(
    "/tables/{slug}/rounds", response={200: RoundsOut, **READ_ERRORS, 422: ErrorsOut}, summary="List a shoe's rounds"
)
def round_list(
    request: HttpRequest,
    slug: str,
    shoe: Annotated[str, WithJsonSchema({"type": "string", "pattern": f"^({SHOE_QUERY.pattern})$"})] = Query(
        "current", description="'current' or a shoe number"
    ),
) -> Status[dict[str, Any]]:
    if not SHOE_QUERY.fullmatch(shoe):  # ASCII digits only: "²".isdigit() is true
        return Status(422, {"errors": [{"field": "shoe", "message": "expected 'current' or a shoe number"}]})
    table = _table(slug)
    found = selectors.shoe_find(table=table, which=shoe)
    if found is None and shoe != "current":
        raise Http404(f"table {slug!r} has no shoe {shoe}")
    rounds = [selectors.round_to_data(r) for r in selectors.shoe_rounds(shoe=found)] if found else []
    return Status(
        200, {"table": table.slug, "shoe": selectors.shoe_to_data(found) if found else None, "rounds": rounds}
    )


@router.get(
    "/rounds/{round_id}",
    response={200: ReceiptEnvelope, **READ_ERRORS},
    summary="A round by its Transaction ID",
    description=(
        "The round a player asks about (its receipt page is /rounds/{round_id}/): cards, winner, every bet's "
        "result, its table and shoe, and whether it was voided and why. The ID is read in any case, I and L "
        "as 1, O as 0; 404 when no round has it."
    ),
)
def round_detail(
    request: HttpRequest, round_id: str = Path(..., description="The round's Transaction ID, e.g. 01JC8Z4Q2M7X9ABC")
) -> Status[dict[str, Any]]:
    found = receipts.round_find(round_id)
    if found is None:
        raise Http404(f"no round has the Transaction ID {round_id[:40]!r}")
    return Status(200, {"round": selectors.round_to_data(found, with_table=True)})
