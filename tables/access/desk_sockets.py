"""Who may open the reviewer's desk's socket (its alarms, pushed live).

The pages' sockets carry no session (they are public, and thousands are open: a session
would cost each of them); the desk's page hands its socket a signed ticket naming the
reviewer instead, good for ``TICKET_SECONDS``, and the socket asks the database whether
that reviewer may still see alarms when it opens. A desk left open past its ticket's
age is refused when it reconnects with the ticket its page was given (its panel stays as
it was); a reload gives it a new one."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core import signing

SALT = "tables.desk-socket"
TICKET_SECONDS = 12 * 3600  # a shift
PERMISSION = "tables.view_alarm"


def desk_ticket(user_id: int) -> str:
    """The ticket a desk page's socket presents (``?ticket=``)."""
    return signing.dumps(user_id, salt=SALT, compress=False)


def desk_ticket_allows(ticket: str) -> bool:
    """Whether ``ticket`` is one this site signed, not older than ``TICKET_SECONDS``,
    for an active staff user who may see alarms (read from the database now)."""
    try:
        user_id = signing.loads(ticket, salt=SALT, max_age=TICKET_SECONDS)
    except signing.BadSignature:
        return False
    user = get_user_model().objects.filter(pk=user_id, is_active=True, is_staff=True).first()
    return user is not None and user.has_perm(PERMISSION)
