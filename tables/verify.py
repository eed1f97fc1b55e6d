"""Verify authenticated cards offline, with nothing but Python's standard library.

One card: its plaintext hashes to its Public Hash Value::

    python -m tables.verify H-3-uee9JLvMAncG4J2FN8dG-... 7c1f...e2

A whole shoe, as downloaded from the table page (the public API's answer,
``GET /api/tables/{slug}/shoes/{number}/cards``): every revealed plaintext hashes to
its card's Public Hash Value, and the card hashes, joined in card-number order with no
separator, hash to the shoe's commitment::

    python -m tables.verify shoe-12-cards.json

Exit status 0 when everything checked matches, 1 when something does not, 2 for a
file or arguments it cannot read. This module imports nothing of the project (nor
Django), so it can be copied out and run on its own.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO


def card_hash(plaintext: str) -> str:
    """The Public Hash Value of a plaintext: lowercase hex SHA-512 of its UTF-8 bytes."""
    return hashlib.sha512(plaintext.encode("utf-8")).hexdigest()


def shoe_commitment(hashes: Sequence[str]) -> str:
    """SHA-512 (lowercase hex) of the card hashes joined in card-number order, no separator."""
    return hashlib.sha512("".join(hashes).encode("ascii")).hexdigest()


@dataclass
class ShoeCheck:
    """What checking a downloaded shoe found."""

    cards: int = 0
    revealed: int = 0
    verified: int = 0
    commitment_ok: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.commitment_ok and not self.problems

    @property
    def fully_verified(self) -> bool:
        return self.ok and self.cards > 0 and self.verified == self.cards


class UnreadableShoe(ValueError):
    """Not a shoe's cards as the API answers them."""


def check_shoe(data: Any) -> ShoeCheck:
    """Check a shoe's cards (the API's answer, parsed): numbers 1..N in order, every
    revealed plaintext against its hash, and the hashes against the commitment."""
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise UnreadableShoe('expected the API\'s answer: {"shoe": N, "commitment": "...", "cards": [...]}')
    if not data["cards"]:
        raise UnreadableShoe("the shoe has no cards: it was not authenticated")
    check = ShoeCheck(cards=len(data["cards"]))
    hashes = []
    for place, card in enumerate(data["cards"], start=1):
        if not isinstance(card, dict) or not isinstance(card.get("hash"), str):
            raise UnreadableShoe(f"card at place {place} has no hash")
        number, expected = card.get("number"), card["hash"].lower()
        if number != place:
            check.problems.append(f"card at place {place} is numbered {number!r}: the cards are not in order")
        hashes.append(expected)
        plaintext = card.get("plaintext")
        if plaintext is None:
            continue
        check.revealed += 1
        if not isinstance(plaintext, str):
            check.problems.append(f"card {number}: its plaintext is not a string")
        elif card_hash(plaintext) != expected:
            check.problems.append(f"card {number}: its plaintext does not hash to its Public Hash Value")
        else:
            check.verified += 1
    commitment = data.get("commitment")
    check.commitment_ok = isinstance(commitment, str) and shoe_commitment(hashes) == commitment.lower()
    if not check.commitment_ok:
        check.problems.append("the card hashes do not hash to the shoe's commitment")
    return check


def _verify_card(plaintext: str, public_hash: str, out: TextIO) -> int:
    verified = card_hash(plaintext)
    match = verified == public_hash.strip().lower()
    print(f"Verified Hash Value: {verified}", file=out)
    print(f"Public Hash Value:   {public_hash.strip().lower()}", file=out)
    print("match" if match else "MISMATCH: this plaintext is not the card committed", file=out)
    return 0 if match else 1


def _verify_shoe(path: str, out: TextIO) -> int:
    try:
        with open(path, encoding="utf-8") as file:
            check = check_shoe(json.load(file))
    except (OSError, ValueError) as error:
        print(f"cannot check {path}: {error}", file=out)
        return 2
    for problem in check.problems:
        print(f"MISMATCH: {problem}", file=out)
    print(
        f"commitment: {'matches' if check.commitment_ok else 'DOES NOT MATCH'} the {check.cards} card hashes", file=out
    )
    print(f"cards: {check.cards}, revealed: {check.revealed}, verified: {check.verified}", file=out)
    if check.fully_verified:
        print("fully verified: every card of the shoe was committed before play", file=out)
    return 0 if check.ok else 1


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tables.verify",
        description="Verify a card's plaintext against its Public Hash Value, or a downloaded shoe's cards.",
    )
    parser.add_argument("source", help="a card's plaintext, or a shoe's cards file (JSON, as downloaded)")
    parser.add_argument("hash", nargs="?", help="the card's Public Hash Value (with a plaintext)")
    args = parser.parse_args(argv)
    if args.hash is not None:
        return _verify_card(args.source, args.hash, out)
    return _verify_shoe(args.source, out)


if __name__ == "__main__":
    sys.exit(main())
