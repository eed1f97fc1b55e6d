from django.core.management.base import BaseCommand, CommandError, CommandParser

from ... import services
from ...game.patterns import HARD_SHOES, deal_pattern, pattern_check
from ...models import Table


class Command(BaseCommand):
    help = (
        "Start a new shoe on a table and deal it rounds that follow an outcome pattern, through the service "
        "a dealer system's posts use: a hard shoe to look at the screens on (choppy, streak, tie-heavy, "
        "pairs-heavy, normal) or a pattern of your own (P, B, T: that winner; 2: a pair; .: as the shoe deals)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("table", help="The table's slug.")
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--shoe", choices=sorted(HARD_SHOES), help="A hard shoe by its name.")
        which.add_argument("--pattern", help="One letter a round: P, B, T, 2 or '.'.")
        parser.add_argument("--rounds", type=int, default=0, help="Deal only the first N rounds (0: all).")
        parser.add_argument("--seed", type=int, default=1, help="The shoe's cards (one seed, one shoe).")
        parser.add_argument("--end", action="store_true", help="End the shoe after its last round.")

    def handle(self, *args: object, **options: object) -> None:
        table = Table.objects.filter(slug=str(options["table"])).first()
        if table is None:
            raise CommandError(f"table: no table {options['table']!r}")
        pattern = HARD_SHOES[str(options["shoe"])] if options["shoe"] else str(options["pattern"])
        rounds = int(options["rounds"])  # type: ignore[call-overload]
        if rounds < 0:
            raise CommandError("rounds: 0 or more")
        try:
            dealt = deal_pattern(pattern_check(pattern[:rounds] if rounds else pattern), int(options["seed"]))  # type: ignore[call-overload]
        except ValueError as error:
            raise CommandError(f"pattern: {error}") from error
        services.shoe_start(table=table)
        for outcome in dealt:
            services.round_record(
                table=table,
                player=[card.code for card in outcome.player_cards],
                banker=[card.code for card in outcome.banker_cards],
            )
        if options["end"]:
            services.shoe_end(table=table)
        self.stderr.write(f"Dealt {len(dealt)} rounds into a new shoe of {table.slug}.")
