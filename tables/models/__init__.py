"""Tables, shoes and rounds: the database is the truth.

- :mod:`.tables`: :class:`Table`.
- :mod:`.audience`: :class:`AudienceChange`, who chose what a table's public screens
  show and when (append-only).
- :mod:`.shoes`: :class:`Shoe`.
- :mod:`.rounds`: :class:`Round` and its append-only audit trail, :class:`RoundAudit`.
- :mod:`.shoe_days`: :class:`ShoeDay`, the reviewer statistics of a shoe's rounds on
  one day, kept as they are recorded.
- :mod:`.history_sums`: :class:`TableDay` and :class:`ShoeTotal`, the sums of all
  history the review over everything reads, kept with the shoe days.
- :mod:`.dealer_days`: :class:`DealerDay`, what a dealer did at a table on one day
  (rounds, voids, cancels, refusals), counted as it happens.
- :mod:`.dealing`: :class:`RoundInProgress` (a round being dealt card by card) and
  :class:`RoundCancel` (one cancelled before it was complete).
- :mod:`.surveillance`: :class:`Alarm` (what shoe surveillance found) and
  :class:`AlarmNote` (a reviewer acknowledged or resolved it, append-only), and
  :class:`ShoeStretch` (fingerprints of a shoe's stretches, to find them again), and
  :class:`AdvantageWindow` (a bet's return on the cards left above its threshold).
- :mod:`.webhooks`: :class:`Webhook` (a receiver of alarms), :class:`WebhookDelivery`
  (one alarm to one webhook) and :class:`WebhookAttempt` (each try, append-only).
- :mod:`.card_authentication`: :class:`ShoeCard` (a committed card) and
  :class:`PlaintextRefusal` (a plaintext refused), seed 001's records.
"""

from __future__ import annotations

from .audience import AudienceChange
from .card_authentication import PlaintextRefusal, ShoeCard
from .dealer_days import DealerDay, dealer_day_add
from .dealing import RoundCancel, RoundInProgress
from .history_sums import ShoeTotal, TableDay
from .rounds import AppendOnly, AppendOnlyError, Round, RoundAudit
from .shoe_days import ShoeDay
from .shoes import Shoe
from .surveillance import AdvantageWindow, Alarm, AlarmFinding, AlarmNote, ShoeStretch
from .tables import AUDIENCE_CHOICES, CUT_CARD_RULE_CHOICES, Table, Variant, token_digest
from .webhooks import Webhook, WebhookAttempt, WebhookDelivery

__all__ = [
    "AUDIENCE_CHOICES", "CUT_CARD_RULE_CHOICES", "AdvantageWindow", "Alarm", "AlarmFinding", "AlarmNote", "AppendOnly",
    "AppendOnlyError", "AudienceChange", "DealerDay", "PlaintextRefusal", "Round", "RoundAudit", "RoundCancel",
    "RoundInProgress", "Shoe", "ShoeCard", "ShoeDay", "ShoeStretch", "ShoeTotal", "Table", "TableDay", "Variant",
    "Webhook", "WebhookAttempt", "WebhookDelivery", "dealer_day_add", "token_digest",
]  # fmt: skip
