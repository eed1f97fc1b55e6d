import contextlib
import time
from collections.abc import Callable

from django.core.management.base import BaseCommand, CommandParser

from ...demo.simulator import CardByCard, Rhythm, Simulation
from ...demo.venue import demo_tables_ensure
from ...models import Round
from ...services import CardDealt


class Command(BaseCommand):
    help = (
        "Deal real shoes into simulated tables through the same services as dealer systems: card by card "
        "at a dealer's rhythm, or whole rounds (--whole-rounds, for load tests)."
    )
    # What the card-by-card dealing reads and waits with (a test passes a fake clock's).
    clock: Callable[[], float] = staticmethod(time.monotonic)
    sleep: Callable[[float], object] = staticmethod(time.sleep)
    verbose = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=4, help="How many demo tables (created if missing).")
        parser.add_argument(
            "--interval",
            type=float,
            default=3.0,
            help="Seconds between rounds on each table (card by card: from a round's last card to the next's first).",
        )
        parser.add_argument(
            "--card-interval",
            type=float,
            default=None,
            help="Seconds between two cards of a round (default: 1, or --interval when it is shorter).",
        )
        parser.add_argument(
            "--whole-rounds",
            action="store_true",
            help="Record each round whole, at once, a table every --interval seconds (load tests).",
        )
        parser.add_argument("--rounds", type=int, default=0, help="Stop after this many rounds in all (0: never).")

    def handle(self, *args: object, **options: object) -> None:
        tables = demo_tables_ensure(count=int(options["tables"]))  # type: ignore[call-overload]
        simulation = Simulation.for_tables(tables)
        interval = float(options["interval"])  # type: ignore[arg-type]
        limit = int(options["rounds"])  # type: ignore[call-overload]
        self.verbose = options["verbosity"] >= 2  # type: ignore[operator]
        self.stderr.write(f"Dealing {len(tables)} tables; Ctrl+C stops.")
        if options["whole_rounds"]:
            dealt = self._whole_rounds(simulation, pause=interval / max(len(tables), 1), limit=limit)
        else:
            card = options["card_interval"]
            rhythm = Rhythm.of(interval, None if card is None else float(card))  # type: ignore[arg-type]
            dealt = self._card_by_card(CardByCard.start(simulation.dealers, rhythm, now=self.clock(), rounds=limit))
        self.stderr.write(f"Dealt {dealt} rounds.")

    def _card_by_card(self, dealing: CardByCard) -> int:
        """Each card when it is due, until the rounds asked for are dealt (none is left
        half dealt) or Ctrl+C; the rounds recorded."""
        recorded = 0

        def dealt(answer: CardDealt) -> None:
            nonlocal recorded
            if answer.round is not None:
                recorded += 1
                self._written(answer.round)

        with contextlib.suppress(KeyboardInterrupt):
            dealing.run(clock=self.clock, sleep=self.sleep, dealt=dealt)
        return recorded

    def _whole_rounds(self, simulation: Simulation, *, pause: float, limit: int) -> int:
        """A whole round on the next table, round-robin, every ``pause`` seconds."""
        dealt = 0
        try:
            while not limit or dealt < limit:
                round_ = simulation.step()
                dealt += 1
                if round_ is not None:
                    self._written(round_)
                if not limit or dealt < limit:
                    time.sleep(pause)
        except KeyboardInterrupt:
            pass
        return dealt

    def _written(self, round_: Round) -> None:
        if self.verbose:
            self.stdout.write(
                f"{round_.shoe.table.slug} shoe {round_.shoe.number} round {round_.number}: {round_.winner}"
            )
