import time

from django.core.management.base import BaseCommand, CommandParser

from ...demo.simulator import Simulation
from ...demo.venue import demo_tables_ensure


class Command(BaseCommand):
    help = "Deal real shoes into simulated tables through the same service as dealer systems."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=4, help="How many demo tables (created if missing).")
        parser.add_argument("--interval", type=float, default=3.0, help="Seconds between rounds on each table.")
        parser.add_argument("--rounds", type=int, default=0, help="Stop after this many rounds in all (0: never).")

    def handle(self, *args: object, **options: object) -> None:
        tables = demo_tables_ensure(count=int(options["tables"]))  # type: ignore[call-overload]
        simulation = Simulation.for_tables(tables)
        pause = float(options["interval"]) / max(len(tables), 1)  # type: ignore[arg-type]
        limit = int(options["rounds"])  # type: ignore[call-overload]
        self.stderr.write(f"Dealing {len(tables)} tables; Ctrl+C stops.")
        dealt = 0
        try:
            while not limit or dealt < limit:
                round_ = simulation.step()
                dealt += 1
                if round_ is not None and options["verbosity"] >= 2:  # type: ignore[operator]
                    self.stdout.write(
                        f"{round_.shoe.table.slug} shoe {round_.shoe.number} round {round_.number}: {round_.winner}"
                    )
                if not limit or dealt < limit:
                    time.sleep(pause)
        except KeyboardInterrupt:
            pass
        self.stderr.write(f"Dealt {dealt} rounds.")
