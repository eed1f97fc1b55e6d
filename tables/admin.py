"""Admin review of tables, shoes and rounds (staff only): the reviewer's desk.

A round's page is read-only (nothing on a round is edited: it is voided, with a reason,
and every void is an append-only audit event). Voiding takes the ``void_round``
permission, which the "reviewer" group holds (migration 0005).

A round still being dealt card by card (issue 34) shows on its shoe's page, and a
reviewer with the ``cancel_round`` permission (the "reviewer" group, migration 0012)
cancels it there or from the shoes list, with a reason: the cancel is kept for good
(:class:`~tables.models.RoundCancel`, listed read-only), never changed or deleted.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from . import selectors, services
from .access import login
from .authentication import selectors as authentication
from .desk import lists, rounds
from .desk import shoe as shoe_desk
from .game.audience import Audience
from .labels import winner_name
from .models import Alarm, AlarmNote, AudienceChange, Round, RoundAudit, RoundCancel, RoundInProgress, Shoe, Table
from .surveillance import webhook_admin  # noqa: F401  (registers the webhooks' admins)
from .surveillance.alarm_admin import AlarmAdmin, AlarmNoteAdmin, desk_alarms
from .templatetags import cards

# Sign-ins go through the throttled form (its documented hook); config/urls.py routes
# the login page through tables.access.login.login, which answers its refusals with 429.
admin.site.login_form = login.ThrottledLoginForm
# The admin is the product's reviewer's desk: its name, not Django's (templates/admin/base_site.html).
admin.site.site_header = admin.site.site_title = gettext_lazy("Baccarat Roads")

VOID_PERMISSION = "tables.void_round"
ROTATE_PERMISSION = "tables.rotate_token"
CANCEL_PERMISSION = "tables.cancel_round"
AUDIENCE_PERMISSION = "tables.set_audience"
REFUSALS_SHOWN = 100  # refused plaintexts listed on a shoe's page, newest first


class AudienceChangeInline(admin.TabularInline):
    """Each change of what the table's public screens show, newest first: to read."""

    model = AudienceChange
    extra = 0
    can_delete = False
    fields = ["at", "previous", "audience", "username"]
    readonly_fields = ["at", "previous", "audience", "username"]
    verbose_name_plural = gettext_lazy("What its public screens showed: each change")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "variant", "decks", "cut_card_rule", "dealer", "audience", "simulated"]
    list_filter = ["variant", "audience", "simulated"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    actions = ["rotate_token"]
    inlines = [AudienceChangeInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> list[str]:
        """Only owners (``set_audience``) choose what the public sees."""
        fields = list(super().get_readonly_fields(request, obj))
        return fields if request.user.has_perm(AUDIENCE_PERMISSION) else [*fields, "audience"]

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        """The audience goes through its service, which keeps who chose it and when; the
        other fields are saved as admin saves them."""
        chosen = Audience(obj.audience)
        if "audience" in form.changed_data:
            obj.audience = form.initial.get("audience", Audience.FULL_SHOE.value) if change else Audience.FULL_SHOE
        super().save_model(request, obj, form, change)
        if chosen != obj.audience:
            services.table_audience_set(table=obj, audience=chosen, user=request.user)

    @admin.action(
        description=gettext_lazy("Rotate the ingest token (shows the new token once)"), permissions=["rotate_token"]
    )
    def rotate_token(self, request: HttpRequest, queryset: QuerySet[Table]) -> TemplateResponse:
        """Asks first (the dealer system is cut off at once), then shows each new token on
        this one answer: never in a message (kept in the session until read) or a cookie,
        and the answer is not cached."""
        context = {
            **self.admin_site.each_context(request),
            "title": _("Rotate the ingest token"),
            "opts": self.opts,
            "tables": queryset,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        if "apply" in request.POST:
            rotated = [(table, services.table_token_rotate(table=table)) for table in queryset]
            for table, _token in rotated:
                self.log_change(request, table, "Rotated the ingest token")
            context["rotated"] = rotated
        response = TemplateResponse(request, "admin/tables/table/rotate_token.html", context)
        add_never_cache_headers(response)
        return response

    @admin.display(description=gettext_lazy("dealer name"), ordering="dealer_name")
    def dealer(self, table: Table) -> str:
        """The name the dealer system sent, isolated from the columns beside it."""
        return cards.dealer(table.dealer_name)

    def has_rotate_token_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(ROTATE_PERMISSION)


@admin.register(Shoe)
class ShoeAdmin(lists.PlainCheckboxes, admin.ModelAdmin):
    """A shoe's page is the reviewer's desk (tables/desk/shoe.py): read-only, with a
    replay of the table page after any of its rounds; nothing on it can be saved."""

    list_display = ["table", "number", "state", "dealing", "decks", "started_at", "ended_at"]
    list_filter = ["table", "state"]
    # Each row names its table and the round it is dealing: one query for the page, not
    # one a row.
    list_select_related = ["table", "round_in_progress"]
    show_full_result_count = False  # "N of M" would count every shoe on every page view
    paginator = lists.EstimatedCountPaginator
    list_per_page = 50  # as the rounds' list: a row's cells cost most of a page
    ordering = ["-started_at", "-pk"]  # newest first: a reviewer looks at recent shoes
    readonly_fields = [f.name for f in Shoe._meta.fields]  # the tally above all: recording keeps it
    actions = ["cancel_rounds_in_progress"]

    @admin.display(description=gettext_lazy("round in progress"))
    def dealing(self, shoe: Shoe) -> str:
        progress = _progress(shoe)
        if progress is None:
            return self.get_empty_value_display()
        return format_html(
            '<span class="desk-nowrap">{}</span> {}',
            _("Round %(number)s · dealing") % {"number": progress.number},
            rounds.cards_html(progress.dealt),
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # shoes start through the API or the simulator

    def has_change_permission(self, request: HttpRequest, obj: Shoe | None = None) -> bool:
        return False  # recording keeps a shoe; a reviewer voids rounds, on their own pages

    def has_delete_permission(self, request: HttpRequest, obj: Shoe | None = None) -> bool:
        return False  # deleting a shoe would delete its rounds, which are kept for audit

    def has_cancel_round_permission(self, request: HttpRequest, obj: Shoe | None = None) -> bool:
        return request.user.has_perm(CANCEL_PERMISSION)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path("<path:object_id>/replay/", view(self.replay_view), name="tables_shoe_replay"),
            path("<path:object_id>/cancel-round/", view(self.cancel_round_view), name="tables_shoe_cancel_round"),
            *super().get_urls(),
        ]

    def _desk_shoe(self, request: HttpRequest, object_id: str) -> Shoe:
        shoe = self.get_object(request, unquote(object_id))
        if shoe is None:
            raise Http404(f"There is no shoe with ID {object_id!r}.")
        if not self.has_view_permission(request, shoe):
            raise PermissionDenied
        return shoe

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The shoe's desk, its replay after the query's ``round`` (the last by default)."""
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])  # read-only: nothing here is saved
        shoe = self._desk_shoe(request, object_id)
        rounds = shoe_desk.shoe_rounds(shoe)
        error, status = "", 200
        try:
            at = shoe_desk.replay_position(request.GET.get("round"), rounds)
        except shoe_desk.ReplayPositionError as refused:
            error, status, at = str(refused), 400, shoe_desk.replay_position(None, rounds)
        context = {
            **self.admin_site.each_context(request),
            **shoe_desk.desk_context(shoe, rounds, at),
            "title": str(shoe),
            "opts": self.opts,
            "original": shoe,
            "replay_error": error,
            "shoe_events": selectors.shoe_audit_events(shoe=shoe),
            "refusals": list(authentication.shoe_plaintext_refusals(shoe=shoe)[:REFUSALS_SHOWN]),
            "refusals_shown": REFUSALS_SHOWN,
            **shoe_desk.dealing_context(shoe),
            "alarms": desk_alarms(request, shoe.pk),
            "can_cancel": self.has_cancel_round_permission(request, shoe),
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/tables/shoe/desk.html", context, status=status)

    def replay_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The replay part of the desk after the query's ``round``, for htmx to swap in."""
        shoe = self._desk_shoe(request, object_id)
        rounds = shoe_desk.shoe_rounds(shoe)
        try:
            at = shoe_desk.replay_position(request.GET.get("round"), rounds)
        except shoe_desk.ReplayPositionError as refused:
            return HttpResponseBadRequest(str(refused), content_type="text/plain; charset=utf-8")
        context = {"shoe": shoe, "opts": self.opts, "replay": shoe_desk.replay_context(rounds, at)}
        return TemplateResponse(request, "admin/tables/shoe/_replay.html", context)

    def cancel_round_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The shoe page's "Cancel round in progress" button: shows the round being dealt
        and asks a reason (required); cancels it on confirming."""
        shoe = self._desk_shoe(request, object_id)
        if not self.has_cancel_round_permission(request, shoe):
            raise PermissionDenied
        page = reverse("admin:tables_shoe_change", args=[shoe.pk])
        progress = RoundInProgress.objects.filter(shoe=shoe).first()
        if progress is None:
            self._nothing_to_cancel(request, shoe)
            return HttpResponseRedirect(page)
        initial = {
            "round": progress.number,
            "deal": services.deal_number(shoe_id=progress.shoe_id, number=progress.number),
        }
        form = rounds.CancelForm(request.POST if request.method == "POST" else None, initial=initial)
        if form.is_valid():
            self._cancel(
                request, shoe, form.cleaned_data["reason"], form.cleaned_data["round"], form.cleaned_data["deal"]
            )
            return HttpResponseRedirect(page)
        return self._cancel_form(request, [(shoe, progress)], form)

    @admin.action(description=gettext_lazy("Cancel the round in progress…"), permissions=["cancel_round"])
    def cancel_rounds_in_progress(self, request: HttpRequest, queryset: QuerySet[Shoe]) -> HttpResponse | None:
        """The shoes list's action: asks a reason (required) for the rounds the selected
        shoes are dealing, and cancels them on confirming."""
        dealing = [(shoe, progress) for shoe in queryset if (progress := _progress(shoe)) is not None]
        if not dealing:
            self.message_user(
                request, _("None of the selected shoes is dealing a round: nothing to cancel."), messages.ERROR
            )
            return None
        form = rounds.CancelForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            for shoe, _progress_seen in dealing:
                seen = request.POST.get(f"round-{shoe.pk}", "")
                deal = request.POST.get(f"deal-{shoe.pk}", "")
                self._cancel(
                    request,
                    shoe,
                    form.cleaned_data["reason"],
                    int(seen) if seen.isdigit() else None,
                    int(deal) if deal.isdigit() else None,
                )
            return None
        return self._cancel_form(request, dealing, form, action=True)

    def _cancel_form(
        self, request: HttpRequest, dealing: list[tuple[Shoe, RoundInProgress]], form: Any, action: bool = False
    ) -> TemplateResponse:
        count = len(dealing)
        title = ngettext("Cancel the round in progress?", "Cancel the rounds in progress?", count)
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "opts": self.opts,
            "dealing": [
                (
                    shoe,
                    progress,
                    shoe_desk.round_dealing(progress),
                    services.deal_number(shoe_id=progress.shoe_id, number=progress.number),
                )
                for shoe, progress in dealing
            ],
            "form": form,
            "action": action,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/tables/shoe/cancel_round.html", context)

    def _cancel(
        self, request: HttpRequest, shoe: Shoe, reason: str, seen: int | None, deal: int | None = None
    ) -> RoundCancel | None:
        """Cancel the round ``shoe`` is dealing, when it is still round ``seen`` and deal
        ``deal`` (the one the reviewer was shown), and say what was cancelled."""
        try:
            cancel = services.round_cancel(
                table=shoe.table, reason=reason, user=request.user, number=seen, shoe_number=shoe.number, deal=deal
            )
        except services.RoundConflictError:
            progress = RoundInProgress.objects.filter(shoe=shoe).first()
            if progress is not None and progress.number == seen:
                text = _(
                    "Round %(seen)s of %(shoe)s was cancelled and is being dealt again since: "
                    "nothing was cancelled. Look again before you cancel."
                )
            else:
                text = _(
                    "Round %(seen)s of %(shoe)s is no longer being dealt (round %(number)s is): "
                    "nothing was cancelled. Look again before you cancel."
                )
            values = {"seen": seen, "shoe": shoe, "number": progress.number if progress else "—"}
            self.message_user(request, text % values, messages.WARNING)
            return None
        except (services.NoRoundInProgressError, services.NoOpenShoeError):
            self._nothing_to_cancel(request, shoe)
            return None
        labels = " ".join(card.label for card in cancel.dealt)
        self.log_change(request, shoe, f"Cancelled round {cancel.number} in progress ({cancel.cards}): {reason}")
        self.message_user(
            request,
            _("Round %(number)s of %(shoe)s is cancelled (cards %(cards)s): its cards count as not dealt.")
            % {"number": cancel.number, "shoe": shoe, "cards": labels},
            messages.SUCCESS,
        )
        return cancel

    def _nothing_to_cancel(self, request: HttpRequest, shoe: Shoe) -> None:
        self.message_user(
            request, _("No round is being dealt in %(shoe)s: nothing to cancel.") % {"shoe": shoe}, messages.ERROR
        )

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # Without the permission the action is not offered; one posted anyway is refused
        # outright (403), not quietly ignored.
        cancelling = request.method == "POST" and request.POST.get("action") == "cancel_rounds_in_progress"
        if cancelling and not self.has_cancel_round_permission(request):
            raise PermissionDenied
        return super().changelist_view(request, extra_context)


def _progress(shoe: Shoe) -> RoundInProgress | None:
    """The round a shoe read with ``round_in_progress`` is dealing, if any."""
    try:
        return shoe.round_in_progress
    except RoundInProgress.DoesNotExist:
        return None


@admin.register(Round)
class RoundAdmin(lists.PlainCheckboxes, admin.ModelAdmin):
    # Fits 1440 px: the cards and side results in one column each, not one per flag. What
    # a reviewer looks for first comes first (a phone shows the first columns without
    # scrolling sideways): the round, its result as a chip, its time; then where it was
    # dealt, its cards and its state.
    list_display = ["round_id", "result", "when", "table", "shoe_round", "hands", "state"]
    list_display_links = ["round_id"]
    # The tables (a few) all listed, not the distinct tables of every round; the recent
    # shoes, not every shoe (tables.desk.lists).
    list_filter = [
        lists.RoundTableFilter,
        lists.RecentShoeFilter,
        # Today, the past 7 days, this month, this year: fixed choices. The date hierarchy
        # it replaces listed the distinct days of every round, a scan of all of history.
        ("created_at", admin.DateFieldListFilter),
        "winner",
        "player_pair",
        "banker_pair",
        "player_natural",
        "banker_natural",
        "voided",
    ]
    search_fields = ["round_id"]
    list_select_related = ["shoe__table", "table"]
    show_full_result_count = False  # "N of M" would count every round on every page view
    show_facets = admin.ShowFacets.NEVER  # "Show counts" would count every round for each filter choice
    paginator = lists.EstimatedCountPaginator
    list_per_page = 50  # each row's cells (and action checkbox) cost most of a page: 50 keeps it fast
    ordering = ["-created_at", "-pk"]  # newest first: a reviewer looks at what just happened
    actions = ["void_rounds"]
    readonly_fields = [f.name for f in Round._meta.fields]

    @admin.display(ordering="shoe__number", description=gettext_lazy("shoe · round"))
    def shoe_round(self, obj: Round) -> str:
        return f"{obj.shoe.number} · {obj.number}"

    @admin.display(ordering="created_at", description=gettext_lazy("time"))
    def when(self, obj: Round) -> str:
        return date_format(timezone.localtime(obj.created_at), "DATETIME_FORMAT")  # to the second, in the language

    @admin.display(description=gettext_lazy("player · banker"))
    def hands(self, obj: Round) -> str:
        return format_html(
            '<span class="desk-nowrap">{} <b>{}</b></span> · <span class="desk-nowrap">{} <b>{}</b></span>',
            rounds.cards_html(obj.player_hand),
            obj.player_score,
            rounds.cards_html(obj.banker_hand),
            obj.banker_score,
        )

    @admin.display(description=gettext_lazy("result"), ordering="winner")
    def result(self, obj: Round) -> str:
        sides = [
            (pgettext("short, in a list of results", "P pair"), obj.player_pair),
            (pgettext("short, in a list of results", "B pair"), obj.banker_pair),
            (pgettext("short, in a list of results", "natural"), obj.player_natural or obj.banker_natural),
        ]
        return format_html(
            '<span class="result-chip result-{}">{}</span>{}',
            obj.winner,
            winner_name(obj.winner),
            "".join(f", {name}" for name, on in sides if on),
        )

    @admin.display(description=gettext_lazy("state"), ordering="voided")
    def state(self, obj: Round) -> str:
        return format_html('<strong class="desk-voided">{}</strong>', _("VOIDED")) if obj.voided else _("played")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # rounds are recorded only through the service

    def has_change_permission(self, request: HttpRequest, obj: Round | None = None) -> bool:
        return False  # nothing on a round is edited: it is voided instead (no SAVE anywhere)

    def has_delete_permission(self, request: HttpRequest, obj: Round | None = None) -> bool:
        return False  # kept for audit; void instead

    def has_void_permission(self, request: HttpRequest, obj: Round | None = None) -> bool:
        return request.user.has_perm(VOID_PERMISSION)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("lookup/", view(self.lookup_view), name="tables_round_lookup"),
            path("<path:object_id>/void/", view(self.void_view), name="tables_round_void"),
            *super().get_urls(),
        ]

    def lookup_view(self, request: HttpRequest) -> HttpResponse:
        """The Transaction ID box on the admin index: straight to the round's page."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        wanted = request.GET.get("round_id", "").strip()
        round_ = rounds.round_find(wanted)  # as the receipt reads it: any case, I and L as 1, O as 0
        if round_ is None:
            shown = wanted.upper() or _("(empty)")
            self.message_user(request, _("No round has the Transaction ID %(id)s.") % {"id": shown}, messages.ERROR)
            return HttpResponseRedirect(reverse("admin:index"))
        return HttpResponseRedirect(reverse("admin:tables_round_change", args=[round_.pk]))

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The round's page: read-only, everything a reviewer answering a dispute needs."""
        round_ = get_object_or_404(Round.objects.select_related("shoe__table", "voided_by"), pk=object_id)
        if not self.has_view_permission(request, round_):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            **rounds.round_desk_context(round_),
            "title": _("Round %(id)s") % {"id": round_.round_id},
            "opts": self.opts,
            "can_void": self.has_void_permission(request, round_) and not round_.voided,
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/tables/round/desk.html", context)

    def void_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The "Void round" button's page: asks a reason (required), and voids on confirming."""
        round_ = get_object_or_404(Round.objects.select_related("shoe__table"), pk=object_id)
        if not self.has_void_permission(request, round_):
            raise PermissionDenied
        page = reverse("admin:tables_round_change", args=[round_.pk])
        form = rounds.VoidForm(request.POST if request.method == "POST" else None)
        if round_.voided:
            self.message_user(request, _("Round %(id)s is already voided.") % {"id": round_.round_id}, messages.WARNING)
            return HttpResponseRedirect(page)
        if form.is_valid():
            try:
                services.round_void(round_=round_, reason=form.cleaned_data["reason"], user=request.user)
            except (
                services.RoundAlreadyVoidedError,
                services.RoundInProgressError,
            ) as error:  # voided meanwhile, or dealing
                self.message_user(request, str(error), messages.WARNING)
                return HttpResponseRedirect(page)
            self.log_change(request, round_, f"Voided: {form.cleaned_data['reason']}")
            self.message_user(request, _("Round %(id)s is voided.") % {"id": round_.round_id}, messages.SUCCESS)
            return HttpResponseRedirect(page)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Void round %(id)s?") % {"id": round_.round_id},
            "round": round_,
            "form": form,
            "opts": self.opts,
        }
        return TemplateResponse(request, "admin/tables/round/void_round.html", context)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # Without the permission the action is not offered; one posted anyway is refused
        # outright (403), not quietly ignored.
        voiding = request.method == "POST" and request.POST.get("action") == "void_rounds"
        if voiding and not self.has_void_permission(request):
            raise PermissionDenied
        return super().changelist_view(request, extra_context)

    @admin.action(description=gettext_lazy("Void the selected rounds…"), permissions=["void"])
    def void_rounds(self, request: HttpRequest, queryset: QuerySet[Round]) -> HttpResponse | None:
        form = rounds.VoidForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            voided = 0
            for round_ in queryset:
                try:
                    services.round_void(round_=round_, reason=form.cleaned_data["reason"], user=request.user)
                except (services.RoundAlreadyVoidedError, services.RoundInProgressError) as error:
                    self.message_user(request, str(error), messages.WARNING)
                    continue
                self.log_change(request, round_, f"Voided: {form.cleaned_data['reason']}")
                voided += 1
            self.message_user(
                request,
                ngettext("Voided %(n)d round.", "Voided %(n)d rounds.", voided) % {"n": voided},
                messages.SUCCESS,
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": _("Void rounds"),
            "rounds": queryset,
            "form": form,
            "opts": self.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/tables/round/void.html", context)


@admin.register(RoundAudit)
class RoundAuditAdmin(admin.ModelAdmin):
    """The audit trail, to read: admin can neither add, change nor delete an event."""

    list_display = ["at", "action", "round_link", "username", "reason"]
    list_filter = ["action"]
    search_fields = ["round__round_id", "username", "reason"]
    list_select_related = ["round__shoe__table"]
    readonly_fields = ["round", "action", "username", "at", "reason"]
    exclude = ["user"]

    @admin.display(description=pgettext_lazy("noun", "round"), ordering="round__round_id")
    def round_link(self, obj: RoundAudit) -> str:
        url = reverse("admin:tables_round_change", args=[obj.round_id])
        return format_html('<a href="{}">{}</a>', url, obj.round.round_id)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RoundAudit | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: RoundAudit | None = None) -> bool:
        return False


@admin.register(AudienceChange)
class AudienceChangeAdmin(admin.ModelAdmin):
    """Every table's audience changes, to read: admin can neither add, change nor delete one."""

    list_display = ["at", "table", "previous", "audience", "username"]
    list_filter = ["audience", "table"]
    list_select_related = ["table"]
    readonly_fields = ["table", "previous", "audience", "username", "at"]
    exclude = ["user"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: AudienceChange | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: AudienceChange | None = None) -> bool:
        return False


@admin.register(RoundInProgress)
class RoundInProgressAdmin(admin.ModelAdmin):
    """The rounds being dealt card by card now, one a dealing shoe, to read: each links to
    its shoe's page, which shows the round as the table page does and cancels it."""

    list_display = ["table", "shoe_link", "number", "hands", "dealer", "started_at", "updated_at"]
    list_display_links = None
    list_select_related = ["shoe__table"]
    ordering = ["-started_at"]

    @admin.display(description=gettext_lazy("shoe"), ordering="shoe__started_at")
    def shoe_link(self, obj: RoundInProgress) -> str:
        url = reverse("admin:tables_shoe_change", args=[obj.shoe_id])
        return format_html('<a href="{}">{}</a>', url, _("Shoe %(number)s") % {"number": obj.shoe.number})

    @admin.display(description=gettext_lazy("table"), ordering="shoe__table__name")
    def table(self, obj: RoundInProgress) -> str:
        return str(obj.shoe.table)

    @admin.display(description=gettext_lazy("player · banker"))
    def hands(self, obj: RoundInProgress) -> str:
        deal = obj.deal
        return format_html(
            '<span class="desk-nowrap">{}</span> · <span class="desk-nowrap">{}</span>',
            rounds.cards_html(deal.player) or "–",
            rounds.cards_html(deal.banker) or "–",
        )

    @admin.display(description=gettext_lazy("dealer name"), ordering="dealer_name")
    def dealer(self, obj: RoundInProgress) -> str:
        return cards.dealer(obj.dealer_name)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """A round in progress is shown on its shoe's page (never its plaintexts here)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        return HttpResponseRedirect(reverse("admin:tables_shoe_change", args=[unquote(object_id)]))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # rounds are dealt through the API

    def has_change_permission(self, request: HttpRequest, obj: RoundInProgress | None = None) -> bool:
        return False  # a card dealt is the card-reading shoe's; a misdeal is cancelled on the shoe's page

    def has_delete_permission(self, request: HttpRequest, obj: RoundInProgress | None = None) -> bool:
        return False  # cancelled with a reason instead, and the cancel kept


@admin.register(RoundCancel)
class RoundCancelAdmin(admin.ModelAdmin):
    """The rounds cancelled before they were complete (misdeals), to read: who, when and
    why; admin can neither add, change nor delete one."""

    # What a reviewer looks for first comes first (a phone shows each cancel as a block,
    # admin.css): when, where, the cards, why and who.
    list_display = ["when", "table", "shoe_round", "cards_shown", "reason", "cancelled_by", "dealer"]
    list_display_links = ["when"]
    list_filter = [("shoe__table", admin.RelatedFieldListFilter), ("at", admin.DateFieldListFilter), "source"]
    search_fields = ["reason", "username"]
    list_select_related = ["shoe__table"]
    show_full_result_count = False
    show_facets = admin.ShowFacets.NEVER
    paginator = lists.EstimatedCountPaginator
    list_per_page = 50
    fields = readonly_fields = ("shoe", "number", "cards_shown", "dealer", "source", "username", "at", "reason")

    @admin.display(ordering="at", description=gettext_lazy("time"))
    def when(self, obj: RoundCancel) -> str:
        return date_format(timezone.localtime(obj.at), "DATETIME_FORMAT")

    @admin.display(ordering="shoe__table__name", description=gettext_lazy("table"))
    def table(self, obj: RoundCancel) -> str:
        return str(obj.shoe.table)

    @admin.display(ordering="shoe__number", description=gettext_lazy("shoe · round"))
    def shoe_round(self, obj: RoundCancel) -> str:
        url = reverse("admin:tables_shoe_change", args=[obj.shoe_id])
        return format_html('<a href="{}">{} · {}</a>', url, obj.shoe.number, obj.number)

    @admin.display(description=gettext_lazy("cards"))
    def cards_shown(self, obj: RoundCancel) -> str:
        return format_html('<span class="desk-nowrap">{}</span>', rounds.cards_html(obj.dealt))

    @admin.display(description=gettext_lazy("dealer name"), ordering="dealer_name")
    def dealer(self, obj: RoundCancel) -> str:
        return cards.dealer(obj.dealer_name)

    @admin.display(description=gettext_lazy("cancelled by"), ordering="source")
    def cancelled_by(self, obj: RoundCancel) -> str:
        if obj.source == RoundCancel.Source.ADMIN:
            return obj.username or obj.get_source_display()
        return obj.get_source_display()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a round is cancelled on its shoe's page or through the API

    def has_change_permission(self, request: HttpRequest, obj: RoundCancel | None = None) -> bool:
        return False  # append-only: kept as it happened

    def has_delete_permission(self, request: HttpRequest, obj: RoundCancel | None = None) -> bool:
        return False


admin.site.register(Alarm, AlarmAdmin)
admin.site.register(AlarmNote, AlarmNoteAdmin)
