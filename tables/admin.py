"""Admin review of tables, shoes and rounds (staff only)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseNotAllowed
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.html import format_html, format_html_join

from . import services, shoe_desk
from .models import Round, Shoe, Table


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "variant", "decks", "cut_card_rule", "dealer_name", "simulated"]
    list_filter = ["variant", "simulated"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    actions = ["rotate_token"]

    @admin.action(description="Rotate the ingest token (shows the new token once)")
    def rotate_token(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            token = services.table_token_rotate(table=table)
            self.message_user(request, f"New ingest token for {table.slug}: {token}", messages.WARNING)


@admin.register(Shoe)
class ShoeAdmin(admin.ModelAdmin):
    """A shoe's page is the reviewer's desk (tables/shoe_desk.py): read-only, with a
    replay of the table page after any of its rounds; nothing on it can be saved."""

    list_display = ["table", "number", "state", "decks", "started_at", "ended_at"]
    list_filter = ["table", "state"]
    ordering = ["-started_at", "-pk"]  # newest first: a reviewer looks at recent shoes
    readonly_fields = [f.name for f in Shoe._meta.fields]  # the tally above all: recording keeps it

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # shoes start through the API or the simulator

    def has_change_permission(self, request: HttpRequest, obj: Shoe | None = None) -> bool:
        return False  # recording keeps a shoe; a reviewer voids rounds, on their own pages

    def has_delete_permission(self, request: HttpRequest, obj: Shoe | None = None) -> bool:
        return False  # deleting a shoe would delete its rounds, which are kept for audit

    def get_urls(self) -> list[URLPattern]:
        replay = path(
            "<path:object_id>/replay/", self.admin_site.admin_view(self.replay_view), name="tables_shoe_replay"
        )
        return [replay, *super().get_urls()]

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


class VoidForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), help_text="Why these rounds are void, e.g. a card misread."
    )


def _cards(cards: tuple) -> str:
    return format_html_join(
        " ", "<span style='color:{}'>{}</span>", ((("#c00" if c.suit.is_red else "#000"), c.label) for c in cards)
    )


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = [
        "round_id",
        "table",
        "shoe_number",
        "number",
        "player",
        "banker",
        "winner",
        "player_pair",
        "banker_pair",
        "natural",
        "voided",
    ]
    list_filter = [
        ("shoe__table", admin.RelatedOnlyFieldListFilter),
        ("shoe", admin.RelatedOnlyFieldListFilter),
        "winner",
        "player_pair",
        "banker_pair",
        "player_natural",
        "banker_natural",
        "voided",
    ]
    search_fields = ["round_id"]
    list_select_related = ["shoe__table"]
    actions = ["void_rounds"]
    readonly_fields = [f.name for f in Round._meta.fields] + ["player", "banker"]

    @admin.display(ordering="shoe__table")
    def table(self, obj: Round) -> str:
        return str(obj.shoe.table)

    @admin.display(ordering="shoe__number", description="shoe")
    def shoe_number(self, obj: Round) -> int:
        return obj.shoe.number

    @admin.display(description="player")
    def player(self, obj: Round) -> str:
        return format_html("{} <b>{}</b>", _cards(obj.player_hand), obj.player_score)

    @admin.display(description="banker")
    def banker(self, obj: Round) -> str:
        return format_html("{} <b>{}</b>", _cards(obj.banker_hand), obj.banker_score)

    @admin.display(boolean=True)
    def natural(self, obj: Round) -> bool:
        return obj.player_natural or obj.banker_natural

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # rounds are recorded only through the service

    def has_delete_permission(self, request: HttpRequest, obj: Round | None = None) -> bool:
        return False  # kept for audit; void instead

    @admin.action(description="Void the selected rounds…", permissions=["change"])
    def void_rounds(self, request: HttpRequest, queryset: QuerySet[Round]) -> HttpResponse | None:
        form = VoidForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            voided = 0
            for round_ in queryset:
                try:
                    services.round_void(round_=round_, reason=form.cleaned_data["reason"], user=request.user)
                except services.RoundAlreadyVoidedError as error:
                    self.message_user(request, str(error), messages.WARNING)
                    continue
                self.log_change(request, round_, f"Voided: {form.cleaned_data['reason']}")
                voided += 1
            self.message_user(request, f"Voided {voided} round(s).", messages.SUCCESS)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Void rounds",
            "rounds": queryset,
            "form": form,
            "opts": self.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/tables/round/void.html", context)
