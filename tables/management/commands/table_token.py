from django.core.management.base import BaseCommand, CommandError, CommandParser

from ... import services
from ...models import Table


class Command(BaseCommand):
    help = "Rotate a table's ingest token and print the new one; the old token stops working."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--slug", required=True)

    def handle(self, *args: object, **options: object) -> None:
        table = Table.objects.filter(slug=options["slug"]).first()
        if table is None:
            raise CommandError(f"no table {options['slug']!r}")
        self.stderr.write(f"New ingest token for {table.slug} (shown once):")
        self.stdout.write(services.table_token_rotate(table=table))
