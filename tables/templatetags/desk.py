"""The admin index's glance at the reviewer's desk: flagged shoes and recent voids."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from .. import selectors

register = template.Library()

GLANCE_SHOES = 50  # the latest shoes tested for the flag
GLANCE_EVENTS = 10  # the latest audit events listed


@register.simple_tag
def desk_glance() -> dict[str, Any]:
    threshold = settings.REVIEW_P_THRESHOLD
    return {
        "threshold": threshold,
        "shoes": GLANCE_SHOES,
        "flagged": selectors.recent_flagged_shoes(threshold=threshold, shoes=GLANCE_SHOES),
        "events": selectors.recent_audit_events(limit=GLANCE_EVENTS),
    }
