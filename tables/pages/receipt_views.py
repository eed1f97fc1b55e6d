"""The public round receipt: ``/rounds/<transaction id>/``, no login."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from . import receipts


def round_receipt(request: HttpRequest, round_id: str) -> HttpResponse | HttpResponseRedirect:
    """A round as it was played: its cards, winner, bets and roads after it, and its void.
    An ID typed in lower case or with a misread letter goes to its round's own address."""
    round_ = receipts.round_find(round_id)
    if round_ is None:
        context = {
            "title": _("No such round"),
            "message": _("No round has the Transaction ID “%(round_id)s”.") % {"round_id": round_id[:40]},
            "hint": _("Check the ID: it is the 16 letters and digits shown with the round."),
        }
        return render(request, "404.html", context, status=404)
    if round_.round_id != round_id:
        return redirect("tables:receipt", round_id=round_.round_id, permanent=True)
    return render(request, "tables/receipt.html", receipts.receipt_context(round_))
