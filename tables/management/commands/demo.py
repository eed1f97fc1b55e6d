import uvicorn
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from config.asgi import build_application

from ...demo.venue import demo_tables_ensure


class Command(BaseCommand):
    help = "Migrate, seed demo tables and serve the live dashboard with tables dealing in-process."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--tables", type=int, default=6)
        parser.add_argument(
            "--interval",
            type=float,
            default=4.0,
            help="Seconds between rounds on each table: from a round's last card to the next round's first.",
        )
        parser.add_argument(
            "--card-interval",
            type=float,
            default=None,
            help="Seconds between two cards of a round (default: 1, or --interval when it is shorter).",
        )

    def handle(self, *args: object, **options: object) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        tables = demo_tables_ensure(count=int(options["tables"]))  # type: ignore[call-overload]
        self.stderr.write(f"{len(tables)} demo tables; dashboard at http://{options['host']}:{options['port']}/")
        # One ASGI process serves pages, websockets and the tables dealing card by card: pushes on the
        # in-memory channel layer reach the pages of the process that sends them.
        card = options["card_interval"]
        application = build_application(
            simulate_interval=float(options["interval"]),  # type: ignore[arg-type]
            card_interval=None if card is None else float(card),  # type: ignore[arg-type]
        )
        # A page sends only resync requests (16 KiB at most): a larger message closes its socket.
        # log_config=None: uvicorn keeps the project's LOGGING (its format and filters, the
        # probes left out) instead of putting its own handlers in.
        uvicorn.run(
            application,
            host=str(options["host"]),
            port=int(options["port"]),  # type: ignore[call-overload]
            lifespan="on",
            ws_max_size=64 * 1024,
            log_config=None,
        )
