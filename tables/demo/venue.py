"""Demo tables for the embedded default: a small venue that deals by itself."""

from __future__ import annotations

from ..models import Table
from ..services import table_create

DEMO_TABLES = [
    ("baccarat-1", "Baccarat 1", "standard", "play_one_more"),
    ("baccarat-2", "Baccarat 2", "standard", "play_one_more"),
    ("speed-3", "Speed Baccarat 3", "standard", "last_round"),
    ("no-comm-4", "No Commission 4", "no_commission", "play_one_more"),
    ("baccarat-5", "Baccarat 5", "standard", "play_one_more"),
    ("squeeze-6", "Squeeze Baccarat 6", "standard", "last_round"),
    ("no-comm-7", "No Commission 7", "no_commission", "last_round"),
    ("baccarat-8", "Baccarat 8", "standard", "play_one_more"),
]
DEMO_LIMITS = {
    "player": [10, 10000],
    "banker": [10, 10000],
    "tie": [10, 1000],
    "player_pair": [10, 1000],
    "banker_pair": [10, 1000],
}


def demo_tables_ensure(*, count: int) -> list[Table]:
    """The first ``count`` simulated tables, creating demo tables as needed."""
    tables = list(Table.objects.filter(simulated=True).order_by("pk")[:count])
    taken = {t.slug for t in Table.objects.all()}
    specs = (spec for spec in DEMO_TABLES if spec[0] not in taken)
    number = len(DEMO_TABLES)
    while len(tables) < count:
        spec = next(specs, None)
        if spec is None:
            number += 1
            spec = (f"baccarat-{number}", f"Baccarat {number}", "standard", "play_one_more")
            if spec[0] in taken:
                continue
        slug, name, variant, rule = spec
        table, _token = table_create(slug=slug, name=name, variant=variant, cut_card_rule=rule, simulated=True)
        Table.objects.filter(pk=table.pk).update(limits=DEMO_LIMITS)
        tables.append(table)
    return tables
