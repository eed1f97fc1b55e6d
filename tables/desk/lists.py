"""The admin's change lists at any size (issue 33): a year of history is a million rounds
and thousands of shoes, and a list page must cost what it cost after a day.

- :class:`EstimatedCountPaginator`: on PostgreSQL an unfiltered list takes its length
  from the planner's estimate (``pg_class.reltuples``) once the table is large, not an
  exact ``COUNT(*)`` over every row on every page view; filtered lists count exactly
  (their indexes bound the count).
- :class:`PlainCheckboxes`: a list's action checkboxes as plain markup, not a form
  widget rendered through templates row by row.
- :class:`RoundTableFilter`: the rounds list's table filter reads the table each round
  keeps, by its index (table, newest first): the list's count reads one table's index
  entries, not a join through every shoe.
- :class:`RecentShoeFilter`: the rounds list's shoe filter offers the most recent shoes
  (of the table filtered on), read with their tables in one query, not every shoe that
  ever had a round, each reading its table (one query a shoe)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.contrib.admin import helpers
from django.core.paginator import Paginator
from django.db import connections
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.functional import cached_property
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy

from ..models import Shoe, Table

ESTIMATE_FROM = 10_000  # rows: below this an exact count costs little and is exact (a table deals ~1,500 a day)
RECENT_SHOES = 30  # shoes the rounds list's filter offers
# Admin's own words for a row's checkbox, translated by Django's catalogue (a name, not a
# literal, so that this project's catalogues do not take them over).
ADMIN_SELECT_LABEL = "Select this object for an action - {}"


class EstimatedCountPaginator(Paginator):
    """A paginator whose count of a large PostgreSQL list is the planner's estimate:
    the table's, unfiltered, or the filtered query's (one EXPLAIN, no row read), once it
    comes to more than :data:`ESTIMATE_FROM` rows; a smaller list is counted."""

    @cached_property
    def count(self) -> int:
        estimate = _estimated_rows(self.object_list)
        return estimate if estimate is not None and estimate > ESTIMATE_FROM else super().count


def _estimated_rows(rows: Any) -> int | None:
    """The planner's row estimate of a queryset on PostgreSQL (None: not a queryset, or
    another database)."""
    if not isinstance(rows, QuerySet):
        return None
    connection = connections[rows.db]
    if connection.vendor != "postgresql":
        return None
    if rows.query.where:
        # The rows' keys alone: the same estimate, and a plan without the page's joins and
        # order to make (0.3 ms at a million rounds where the whole query's took 4).
        plan = json.loads(rows.select_related(None).order_by().values("pk").explain(format="json"))
        return int(plan[0]["Plan"]["Plan Rows"])
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass", [rows.model._meta.db_table])
        found = cursor.fetchone()
    return int(found[0]) if found and found[0] is not None and found[0] >= 0 else None


class PlainCheckboxes:
    """A long list's action checkboxes written as the markup they are, not rendered one
    by one through the forms' template engine as admin's stock column does (a third of
    the rounds list's time at 50 rows): the same element, name, value, class and label."""

    def action_checkbox(self, obj: Any) -> SafeString:
        label = format_html(gettext(ADMIN_SELECT_LABEL), str(obj))
        return format_html(
            '<input type="checkbox" name="{}" value="{}" class="action-select" aria-label="{}">',
            helpers.ACTION_CHECKBOX_NAME,
            str(obj.pk),
            label,
        )


class RoundTableFilter(admin.SimpleListFilter):
    """The rounds list's table filter: every table, by name, filtering on the table each
    round keeps (its own index, newest first), not through its shoe."""

    title = gettext_lazy("table")
    parameter_name = "table__id__exact"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(str(pk), name) for pk, name in Table.objects.order_by("name").values_list("pk", "name")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        chosen = self.value() or ""
        return queryset.filter(table_id=int(chosen)) if chosen.isdigit() else queryset


class RecentShoeFilter(admin.SimpleListFilter):
    """The rounds list's shoe filter: the :data:`RECENT_SHOES` most recent shoes (of the
    table the list is filtered on), and the one chosen if it is older."""

    title = gettext_lazy("shoe")
    parameter_name = "shoe__id__exact"  # the address the former filter wrote: links to it still work
    table_parameter = RoundTableFilter.parameter_name

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        shoes = Shoe.objects.select_related("table").order_by("-started_at", "-pk")
        table = request.GET.get(self.table_parameter, "")
        if table.isdigit():
            shoes = shoes.filter(table_id=int(table))
        recent = list(shoes[:RECENT_SHOES])
        chosen = self.value() or ""
        if chosen.isdigit() and all(shoe.pk != int(chosen) for shoe in recent):
            recent += list(Shoe.objects.select_related("table").filter(pk=int(chosen)))
        return [(str(shoe.pk), str(shoe)) for shoe in recent]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        chosen = self.value() or ""
        return queryset.filter(shoe_id=int(chosen)) if chosen.isdigit() else queryset
