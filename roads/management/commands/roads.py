import json
import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser

from roads.engine import Roads
from roads.entries import RoadRound


class Command(BaseCommand):
    help = (
        "Compute every road of one shoe. Reads a JSON list from FILE or stdin whose items are "
        '"B", "P", "T" or {"winner": "B", "banker_pair": true, "player_pair": false}; prints one JSON object.'
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="JSON file (default: standard input)")

    def handle(self, *args: object, **options: object) -> None:
        try:
            if options["file"]:
                with open(str(options["file"]), encoding="utf-8") as source:
                    items = json.load(source)
            else:
                items = json.load(sys.stdin)
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read the rounds: {error}") from error
        if not isinstance(items, list):
            raise CommandError("expected a JSON list of rounds")
        try:
            rounds = [RoadRound.parse(item, index) for index, item in enumerate(items)]
        except ValueError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(json.dumps(Roads.of(rounds).to_data()))
