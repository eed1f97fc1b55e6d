from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from tables.demo import demo_tables_ensure


class Command(BaseCommand):
    help = "Migrate, seed demo tables and serve the live dashboard with tables dealing in-process."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--tables", type=int, default=6)
        parser.add_argument("--interval", type=float, default=4.0, help="Seconds between rounds on each table.")

    def handle(self, *args: object, **options: object) -> None:
        import uvicorn

        call_command("migrate", interactive=False, verbosity=0)
        tables = demo_tables_ensure(count=int(options["tables"]))  # type: ignore[call-overload]
        self.stderr.write(f"{len(tables)} demo tables; dashboard at http://{options['host']}:{options['port']}/")
        # config.asgi, imported by uvicorn below, starts the in-process dealer from this.
        settings.SIMULATE_INTERVAL = float(options["interval"])  # type: ignore[arg-type]
        uvicorn.run(  # type: ignore[call-overload]
            "config.asgi:application",
            host=str(options["host"]),
            port=int(options["port"]),
            lifespan="on",
        )
