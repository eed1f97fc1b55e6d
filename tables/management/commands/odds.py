"""Print the exact return table of every bet for a full or depleted shoe."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ...game.bets import Paytable
from ...game.cards import Card, InvalidCardError
from ...game.odds import BetOdds, Composition, CompositionError, shoe_odds, shoe_odds_to_data


class Command(BaseCommand):
    help = "Exact odds of every bet for an N-deck shoe, optionally after some cards were dealt."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--decks", type=int, default=8)
        parser.add_argument("--removed", default="", help="Cards already dealt, e.g. AH,5S,KD.")
        parser.add_argument("--variant", choices=["standard", "no_commission"], default="standard")
        parser.add_argument("--json", action="store_true", help="Print JSON instead of tables.")

    def handle(self, *args: object, **options: object) -> None:
        try:
            removed = [Card.parse(code) for code in str(options["removed"]).split(",") if code.strip()]
            composition = Composition.full(int(options["decks"])).without(removed)  # type: ignore[call-overload]
            odds = shoe_odds(composition, Paytable.for_variant(str(options["variant"])))
        except InvalidCardError as error:
            raise CommandError(f"--removed: {error}") from error
        except CompositionError as error:
            raise CommandError(str(error)) from error
        if options["json"]:
            self.stdout.write(json.dumps(shoe_odds_to_data(odds), indent=2))
            return
        self.stdout.write(f"{composition.size} cards in the shoe, {options['variant']} paytable\n")
        for bet, bet_odds in odds.bets.items():
            self._table(bet.label, bet_odds)
        if options["variant"] == "standard":
            self._table("Banker (No Commission)", odds.no_commission_banker)

    def _table(self, title: str, odds: BetOdds) -> None:
        total = odds.total
        self.stdout.write(f"{title} ({odds.space})")
        self.stdout.write(f"  {'Event':32s} {'Pays':>7s} {'Combinations':>27s} {'Probability':>12s} {'Return':>10s}")
        for e in odds.events:
            probability, pays = e.count / total, float(e.pays)
            self.stdout.write(
                f"  {e.label:32s} {pays:7.2f} {e.count:27,d} {probability:12.6f} {pays * probability:10.6f}"
            )
        rtp = float(odds.rtp) * 100
        self.stdout.write(f"  {'Total':32s} {'':7s} {total:27,d} {1:12.6f} {float(odds.expected_return):10.6f}")
        self.stdout.write(f"  RTP {rtp:.2f} %\n")
