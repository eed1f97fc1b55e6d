"""Dealer systems as the tests drive them: one posting to a table's ingest API, and the
secret shoe of an authenticated one."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.test import Client

from tables.game.authentication import card_hash, new_plaintext
from tables.game.cards import ALL_CARDS, Card
from tables.models import Table


@dataclass
class Dealer:
    """A dealer system posting to one table's ingest API."""

    client: Client
    table: Table
    token: str

    def post(self, path: str, body: Any = None, *, token: str | None = None, raw: str | None = None) -> Any:
        data = raw if raw is not None else ("" if body is None else json.dumps(body))
        return self.client.post(
            f"/api/tables/{self.table.slug}/{path}",
            data=data,
            content_type="application/json",
            headers={"Authorization": f"Bearer {token or self.token}"},
        )

    def start_shoe(self) -> Any:
        return self.post("shoes")

    def round(self, player: list[str], banker: list[str], **extra: Any) -> Any:
        return self.post("rounds", {"player": player, "banker": banker, **extra})


@dataclass
class Deck:
    """A dealer system's secret shoe: plaintexts in card-number order (card 1 first)."""

    plaintexts: list[str]

    @classmethod
    def of(cls, codes: str, decks: int = 8) -> Deck:
        """The named cards first, then the rest of ``decks`` decks in a fixed order."""
        head = [Card.parse(c) for c in codes.split()]
        rest = list(ALL_CARDS) * decks
        for card in head:
            rest.remove(card)
        return cls([new_plaintext(card) for card in head + rest])

    @property
    def hashes(self) -> list[str]:
        return [card_hash(p) for p in self.plaintexts]

    def __getitem__(self, number: int) -> str:
        return self.plaintexts[number - 1]


# Card 1 is 3H: burns cards 2-4; round 1 is dealt from card 5: P 9H, B AH, P KS, B 7C.
DECK = "3H 2S 2D 2C 9H AH KS 7C"
ROUND_1 = {"player": ["9H", "KS"], "banker": ["AH", "7C"]}


def burned(dealer: Dealer, deck: Deck) -> Dealer:
    assert dealer.post("shoes/current/burn", {"plaintext": deck[1]}).status_code == 201
    return dealer


def first_round(dealer: Dealer, deck: Deck, **extra) -> object:
    return dealer.post("rounds", {**ROUND_1, "plaintexts": [deck[5], deck[6], deck[7], deck[8]], **extra})
