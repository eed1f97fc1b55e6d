"""Dealer days: what a dealer did at a table on one day (rounds dealt, voids, cancelled
rounds, refused posts, card-authentication refusals), counted as each event happens, so
the operations signals read one row and the dealer report sums these rows instead of
reading history."""

from __future__ import annotations

from datetime import date

from django.db import connection, models

from .tables import Table

COUNTS = ("rounds", "voids", "cancels", "refusals", "auth_refusals", "shoes")


def _count(name: str) -> models.PositiveIntegerField[int, int]:
    return models.PositiveIntegerField(name.replace("_", " "), default=0)


class DealerDay(models.Model):
    # Not in admin; the dealer report shows its sums (tables/desk/dealers.py), with its own words.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="dealer_days")
    dealer_name = models.CharField(max_length=80, blank=True, help_text="As the rounds name the dealer; may be empty.")
    day = models.DateField(help_text="In the server's time zone (TIME_ZONE), as shoe days.")
    rounds = _count("rounds")  # rounds dealt (recorded), voided ones included
    voids = _count("voids")  # rounds of this day voided since (counted on the round's day and dealer)
    cancels = _count("cancels")  # rounds cancelled before they were complete
    refusals = _count("refusals")  # round and card posts the API refused, every reason
    refused = models.JSONField(default=dict, help_text="Refused posts by reason, as /metrics names them.")
    auth_refusals = _count("auth_refusals")  # card plaintexts refused
    shoes = _count("shoes")  # shoes whose first round this dealer dealt

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "dealer_name", "day"], name="dealer_day_unique")]
        indexes = [models.Index(fields=["day", "table"], name="dealer_day_by_day")]  # a date range's rows

    def __str__(self) -> str:
        return f"{self.table} · {self.dealer_name or '-'} · {self.day.isoformat()}"


def dealer_day_add(*, table_id: int, dealer_name: str, day: date, **counts: int) -> None:
    """Add ``counts`` (``rounds=1``) to a dealer's day, making the row if it is the day's
    first: one statement (an upsert, on SQLite and PostgreSQL alike), so counting costs
    recording a round the same query on the first round of a day as on the hundredth, and
    two writers at once (a void beside a refused post) both count."""
    unknown = set(counts) - set(COUNTS)
    if unknown or not counts:
        raise ValueError(f"dealer days count {', '.join(COUNTS)}, not {', '.join(sorted(unknown)) or 'nothing'}")
    quote = connection.ops.quote_name
    table = quote(DealerDay._meta.db_table)
    names = [*counts]
    columns = ", ".join(quote(c) for c in ("table_id", "dealer_name", "day", *COUNTS, "refused"))
    values = [
        table_id,
        dealer_name,
        connection.ops.adapt_datefield_value(day),
        *(counts.get(name, 0) for name in COUNTS),
    ]
    adds = ", ".join(f"{quote(n)} = {table}.{quote(n)} + excluded.{quote(n)}" for n in names)
    holes = ", ".join(["%s"] * len(values))
    keys = ", ".join(quote(c) for c in ("table_id", "dealer_name", "day"))
    sql = f"INSERT INTO {table} ({columns}) VALUES ({holes}, '{{}}') ON CONFLICT ({keys}) DO UPDATE SET {adds}"
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
