"""The refusals of the services: each names the HTTP status the API answers and the
field its error names; the API maps them all in one handler."""

from __future__ import annotations


class ServiceError(Exception):
    """A request a service refuses, and changes nothing for: the API answers it with
    ``status`` and an error naming ``field`` (the one place errors are mapped)."""

    status = 400
    default_field: str | None = None

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field if field is not None else self.default_field


class NoOpenShoeError(ServiceError):
    """The table has no open shoe to record a round into, or to end."""

    status = 409


class RoundConflictError(ServiceError):
    """The round number is not the next one, or it was recorded with other cards."""

    status, default_field = 409, "round"


class ShoeNotFoundError(ServiceError):
    """No shoe of the table has that number."""

    status = 404


class ShoeConflictError(ServiceError):
    """The shoe is not in the state the request needs (a round before the burn of an
    authenticated shoe, a second burn, a reveal while the shoe is open)."""

    status = 409


class RoundAlreadyVoidedError(ServiceError):
    """The round was voided already (by someone else, meanwhile)."""

    status = 409


class RoundInProgressError(ServiceError):
    """A round is being dealt card by card: the shoe cannot end, start or burn, nor a
    round be voided or posted whole, until it is complete or cancelled."""

    status = 409


class NoRoundInProgressError(ServiceError):
    """No round is being dealt at the table (none to read or cancel)."""

    status = 404
