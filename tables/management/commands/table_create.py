from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ... import services
from ...game.audience import Audience
from ...game.shoe import CutCardRule
from ...models import Variant


class Command(BaseCommand):
    help = "Create a table and print its ingest token (shown once; only its hash is kept)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--slug", required=True)
        parser.add_argument("--name", required=True)
        parser.add_argument("--variant", choices=Variant.values, default=Variant.STANDARD)
        parser.add_argument("--decks", type=int, default=8)
        parser.add_argument(
            "--cut-card-rule", choices=[rule.value for rule in CutCardRule], default=CutCardRule.PLAY_ONE_MORE.value
        )
        parser.add_argument("--dealer", default="")
        parser.add_argument("--simulated", action="store_true", help="Deal this table with the built-in simulator.")
        parser.add_argument(
            "--audience",
            choices=[audience.value for audience in Audience],
            default=Audience.FULL_SHOE.value,
            help="What its public screens show of the shoe left: full-shoe returns only (the default), "
            "main_bets (Banker, Player and Tie remaining-shoe odds) or everything (a training room).",
        )

    def handle(self, *args: object, **options: object) -> None:
        try:
            table, token = services.table_create(
                slug=str(options["slug"]),
                name=str(options["name"]),
                variant=str(options["variant"]),
                decks=int(options["decks"]),  # type: ignore[call-overload]
                cut_card_rule=str(options["cut_card_rule"]),
                dealer_name=str(options["dealer"]),
                simulated=bool(options["simulated"]),
            )
        except ValidationError as error:
            raise CommandError("; ".join(f"{k}: {' '.join(v)}" for k, v in error.message_dict.items())) from error
        services.table_audience_set(table=table, audience=Audience(str(options["audience"])), user=None)
        self.stderr.write(f"Created table {table.slug}. Its ingest token (shown once):")
        self.stdout.write(token)
