"""Shoes: started, burned, ended (a table's token)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router, Status
from ninja.errors import HttpError, ValidationError
from pydantic import ValidationError as PydanticValidationError

from .. import selectors, services
from .bodies import BodyError
from .core import BODY_ERRORS, WRITE_ERRORS, ErrorsOut, TableRequest, TableToken, api
from .schemas import BurnEnvelope, BurnIn, ShoeEnvelope, ShoeIn

router = Router()


@router.post(
    "/tables/{slug}/shoes",
    auth=TableToken(),
    response={200: ShoeEnvelope, 201: ShoeEnvelope, **BODY_ERRORS},
    summary="Start a new shoe (ends the open one)",
    openapi_extra={
        "requestBody": {
            "required": False,
            "content": {"application/json": {"schema": ShoeIn.model_json_schema()}},
        }
    },
    description=(
        "No body: a plain shoe. With `commitments`, an authenticated shoe (seed 001): the Public Hash Value of "
        "every card, card 1 first, exactly 52 x decks, no two alike; 422 naming the first bad one "
        "(`commitments[17]`), and no shoe starts; 409 for commitments an earlier shoe had. 201 with the new "
        "shoe. Safe to retry: while the open shoe has no burn and no round and was started with the same "
        "commitments (or none), the answer is 200 with that shoe, and no empty twin starts. With an "
        "`Idempotency-Key` header (1 to 64 letters, digits or . _ : -, a UUID will do) a retry is answered 200 "
        "with the shoe that key started, whatever was dealt since; 422 naming `Idempotency-Key` for another "
        "text. 401 for a missing or wrong token, 429 (with Retry-After) after too many of those from one address."
    ),
)
def shoe_create(request: TableRequest, slug: str) -> Status[dict[str, Any]]:
    payload = _optional_body(request, ShoeIn)
    commitments = list(payload.commitments) if payload is not None and payload.commitments is not None else None
    key = request.headers.get("Idempotency-Key", "")
    started = services.shoe_start(table=request.auth, commitments=commitments, key=key)
    return Status(201 if started.created else 200, {"shoe": selectors.shoe_to_data(started.shoe)})


def _optional_body(request: HttpRequest, schema: type[ShoeIn]) -> ShoeIn | None:
    """The body of an operation that also takes none: starting a shoe took no body
    before shoes were authenticated, and dealer systems still post it bare (or as an
    empty form). A JSON body is read as strictly as any other."""
    media = request.content_type or ""
    if not request.body or not (media == "application/json" or media.startswith("application/")):
        return None
    try:
        data = api.parser.parse_body(request)
    except BodyError as error:
        raise HttpError(error.status, error.message) from error
    try:
        return schema.model_validate(data)
    except PydanticValidationError as error:
        raise ValidationError([{**e, "loc": ("body", "payload", *e["loc"])} for e in error.errors()]) from None


@router.post(
    "/tables/{slug}/shoes/current/burn",
    auth=TableToken(),
    response={200: BurnEnvelope, 201: BurnEnvelope, **BODY_ERRORS},
    summary="Turn over card 1 and burn",
    description=(
        "Card 1 is turned over and the next cards burned by its baccarat value (10 for a 0-value card). "
        "An authenticated shoe takes card 1's `plaintext` (422 unless it matches card 1's public hash), a plain "
        "shoe the `card`. 201; 200 with the same body for an identical retry; 409 when no shoe is open, it "
        "has rounds already, or it burned another card."
    ),
)
def shoe_burn(request: TableRequest, slug: str, payload: BurnIn) -> Status[dict[str, Any]]:
    done = services.shoe_burn(table=request.auth, plaintext=payload.plaintext, card=payload.card)
    burn = {"card": done.burn.card.code, "burned": done.burn.burned, "next_card": done.burn.next_card}
    return Status(201 if done.created else 200, {"burn": burn})


@router.post(
    "/tables/{slug}/shoes/current/end",
    auth=TableToken(),
    response={200: ShoeEnvelope, **WRITE_ERRORS, 409: ErrorsOut},
    summary="End the open shoe",
    description="After its last round: the table has no open shoe until the next starts; 409 when none is open.",
)
def shoe_end(request: TableRequest, slug: str) -> Status[dict[str, Any]]:
    return Status(200, {"shoe": selectors.shoe_to_data(services.shoe_end(table=request.auth))})
