"""What a database holds, checked against the rules: run with a server's environment,

    python -m tests.audit

it prints one JSON object: every round (table, shoe, number, ID, cards), how many have
no odds yet, and every problem found. A round is legal when its cards pass the drawing
rules and its stored outcome is theirs; a shoe is whole when its rounds are numbered 1
to its last number without a gap and its dealt cards are exactly its rounds' cards, none
more often than the shoe holds. The fuzzing and the kill -9 tests read it after their
runs, on whichever database the run uses.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any


def audit() -> dict[str, Any]:
    from tables.game.cards import unpack_cards
    from tables.game.validation import IllegalRoundError, check_name, validate_round
    from tables.models import Round, Shoe

    problems: list[str] = []
    rounds: list[dict[str, Any]] = []
    for shoe in Shoe.objects.select_related("table").order_by("table__slug", "number"):
        where = f"{shoe.table.slug} shoe {shoe.number}"
        shoe_rounds = list(Round.objects.filter(shoe=shoe).order_by("number"))
        numbers = [r.number for r in shoe_rounds]
        if numbers != list(range(1, len(numbers) + 1)) or shoe.last_number != len(numbers):
            problems.append(f"{where}: rounds {numbers}, last number {shoe.last_number}")
        if shoe.dealt != "".join(r.player_cards + r.banker_cards for r in shoe_rounds):
            problems.append(f"{where}: dealt cards are not its rounds' cards")
        over = [card.code for card, n in Counter(unpack_cards(shoe.dealt)).items() if n > shoe.decks]
        if over:
            problems.append(f"{where}: dealt more often than {shoe.decks} decks hold: {over}")
        for r in shoe_rounds:
            try:
                outcome = validate_round(list(_codes(r.player_cards)), list(_codes(r.banker_cards)))
                check_name("dealer", r.dealer_name)
            except IllegalRoundError as error:
                problems.append(f"{where} round {r.number}: {error}")
                continue
            if _stored(r) != _stored_of(outcome):
                problems.append(f"{where} round {r.number}: stored outcome {_stored(r)} is not {_stored_of(outcome)}")
            rounds.append(
                {
                    "table": shoe.table.slug,
                    "shoe": shoe.number,
                    "number": r.number,
                    "id": r.round_id,
                    "player": r.player_cards,
                    "banker": r.banker_cards,
                    "odds": r.odds is not None,
                }
            )
    return {"rounds": rounds, "without_odds": sum(not r["odds"] for r in rounds), "problems": problems}


def _codes(packed: str) -> list[str]:
    return [packed[i : i + 2] for i in range(0, len(packed), 2)]


def _stored(r: Any) -> tuple[Any, ...]:
    return (r.winner, r.player_score, r.banker_score, r.player_pair, r.banker_pair, r.player_natural, r.banker_natural)


def _stored_of(outcome: Any) -> tuple[Any, ...]:
    return (
        outcome.winner.value,
        outcome.player_score,
        outcome.banker_score,
        outcome.player_pair,
        outcome.banker_pair,
        outcome.player_natural,
        outcome.banker_natural,
    )


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    print(json.dumps(audit()))
