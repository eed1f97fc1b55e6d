"""Rounds dealt card by card from a card-reading shoe (a table's token), the round in
progress read by anyone (a dealer system back from a lost connection learns where to go
on), and a misdeal cancelled."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router, Status

from .. import selectors, services
from ..game.dealing import Side
from ..operations.metrics import CARD_SECONDS
from .core import BODY_ERRORS, READ_ERRORS, TableRequest, TableToken, _table
from .schemas import CancelEnvelope, CancelIn, CardIn, DealEnvelope, ProgressEnvelope

router = Router()


@router.post(
    "/tables/{slug}/cards",
    auth=TableToken(),
    response={200: DealEnvelope, 201: DealEnvelope, **BODY_ERRORS},
    summary="Deal a card (a card-reading shoe)",
    description=(
        'One card as it leaves the shoe, e.g. `{"card": "9H", "round": 12, "index": 1}`. The rules say '
        "whose it is and when the round is over: 201 with the round as far as it has gone (`complete`: false, "
        "`next`: whose card comes next); the card that completes it answers `complete`: true with the recorded "
        "round, exactly as a whole-round post answers it. A retry of a card already taken (same `round`, "
        "`index` and card) answers 200 with the same body; another card at a taken index is a 409 naming the "
        "card there, and so is an index past the next one. 422 for a card the rules do not call for (a fifth "
        "card when both stand, a third to a player on 6 with `side`), a card the shoe no longer holds, or a "
        "plaintext that does not match the next committed card's public hash (an authenticated shoe). 409 when "
        "no shoe is open, or before the burn of an authenticated shoe."
    ),
)
def card_create(request: TableRequest, slug: str, payload: CardIn) -> Status[dict[str, Any]]:
    with CARD_SECONDS.time():
        dealt = services.card_deal(
            table=request.auth,
            card=payload.card,
            plaintext=payload.plaintext,
            number=payload.round,
            index=payload.index,
            side=Side(payload.side) if payload.side else None,
            dealer=payload.dealer,
            deal=payload.deal,
        )
    body = selectors.deal_to_data(
        shoe=dealt.shoe, number=dealt.number, deal=dealt.deal, dealer=dealt.dealer, round_=dealt.round
    )
    return Status(201 if dealt.created else 200, {"round": body})


@router.get(
    "/tables/{slug}/rounds/current",
    response={200: ProgressEnvelope, **READ_ERRORS},
    summary="The round being dealt",
    description=(
        "The round the table's open shoe is dealing card by card, as far as it has gone: after a lost "
        "connection a dealer system reads where to go on (`cards` + 1 is the next index). 404 when none is."
    ),
)
def round_current(request: HttpRequest, slug: str) -> Status[dict[str, Any]]:
    table = _table(slug)
    progress = selectors.round_in_progress(table=table)
    if progress is None:
        raise services.NoRoundInProgressError(f"no round is being dealt at table {slug}")
    body = selectors.deal_to_data(
        shoe=progress.shoe, number=progress.number, deal=progress.deal, dealer=progress.dealer_name
    )
    return Status(200, {"round": body})


@router.post(
    "/tables/{slug}/rounds/current/cancel",
    auth=TableToken(),
    response={200: CancelEnvelope, **BODY_ERRORS},
    summary="Cancel the round being dealt (a misdeal)",
    description=(
        "Nothing of the round is recorded and its cards count as not dealt (on an authenticated shoe their "
        "committed numbers are spent, kept as burned); the cancel is kept for reviewers with its `reason` "
        "(required, 422 without). 404 when no round is being dealt."
    ),
)
def round_current_cancel(request: TableRequest, slug: str, payload: CancelIn) -> Status[dict[str, Any]]:
    cancel = services.round_cancel(table=request.auth, reason=payload.reason)
    body = {
        "shoe": cancel.shoe.number,
        "number": cancel.number,
        "cards": [card.code for card in cancel.dealt],
        "reason": cancel.reason,
        "at": cancel.at.isoformat(),
        "next_deal": services.deal_number(shoe_id=cancel.shoe_id, number=cancel.number),
    }
    return Status(200, {"cancelled": body})
