"""Writes. Every writer (ingest API, admin, simulator, commands) calls these; one
service records a round (:func:`round_record`).

- :mod:`.tables`: a table made, its ingest token rotated, its public audience chosen.
- :mod:`.shoes`: a shoe started, burned, ended.
- :mod:`.rounds`: a round recorded, or voided.
- :mod:`.dealing`: a round dealt card by card (a card-reading shoe), or cancelled.
- :mod:`.shoe_days`: the reviewer statistics kept as each round is recorded or voided.
- :mod:`.dealer_days`: each dealer's day counted as its events happen, and the operations
  signals checked against it.

Card authentication's checks and the reveal at a shoe's end are its own room's
(:mod:`tables.authentication.services`); the refusals of all are :mod:`tables.errors`.
"""

from __future__ import annotations

from ..authentication.services import PlaintextRefusedError, Refusal
from ..errors import (
    NoOpenShoeError,
    NoRoundInProgressError,
    RoundAlreadyVoidedError,
    RoundConflictError,
    RoundInProgressError,
    ServiceError,
    ShoeConflictError,
    ShoeNotFoundError,
)
from .dealer_days import dealer_day_refused, operations_check
from .dealing import CardDealt, card_deal, deal_number, round_cancel
from .rounds import RecordedRound, round_record, round_void
from .shoes import BurnDone, ShoeStarted, shoe_burn, shoe_end, shoe_reveal, shoe_start
from .tables import table_audience_set, table_create, table_token_rotate

__all__ = [
    "BurnDone", "CardDealt", "NoOpenShoeError", "NoRoundInProgressError", "PlaintextRefusedError", "RecordedRound",
    "Refusal", "RoundAlreadyVoidedError", "RoundConflictError", "RoundInProgressError", "ServiceError",
    "ShoeConflictError", "ShoeNotFoundError", "ShoeStarted", "card_deal", "deal_number", "dealer_day_refused",
    "operations_check", "round_cancel", "round_record", "round_void",
    "shoe_burn", "shoe_end", "shoe_reveal", "shoe_start", "table_audience_set", "table_create", "table_token_rotate",
]  # fmt: skip
