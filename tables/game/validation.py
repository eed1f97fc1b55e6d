"""Validation of a reported round against the rules and the shoe.

Every error names the field (``player``, ``banker[2]``) and the rule it breaks, so a
dealer system can show the dealer exactly which card is wrong.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cards import Card, InvalidCardError, hand_score
from .outcome import RoundOutcome
from .rules import banker_draws, is_natural, player_draws


@dataclass(frozen=True, slots=True)
class FieldError:
    """One problem with a request, naming the field it is in (``player[2]``, ``dealer``)."""

    field: str
    message: str


class IllegalRoundError(ValueError):
    """A reported round that breaks the rules; ``errors`` says where and why."""

    def __init__(self, errors: Sequence[FieldError]) -> None:
        super().__init__("; ".join(f"{e.field}: {e.message}" for e in errors))
        self.errors = tuple(errors)


class ShoeCountError(IllegalRoundError):
    """A card the shoe no longer holds: dealt as often as its decks hold it already. A
    refusal, and a sign for surveillance that the shoe is not what it should be."""


def validate_round(player: object, banker: object) -> RoundOutcome:
    """Check a reported round against the drawing rules and return its outcome.

    ``player`` and ``banker`` are lists of card codes in dealing order. Raises
    :class:`IllegalRoundError`.
    """
    player_cards, player_errors = _parse_hand("player", player)
    banker_cards, banker_errors = _parse_hand("banker", banker)
    errors = player_errors + banker_errors or _drawing_errors(player_cards, banker_cards)
    if errors:
        raise IllegalRoundError(errors)
    return RoundOutcome.of(player_cards, banker_cards)


def check_shoe_counts(outcome: RoundOutcome, *, dealt: Mapping[Card, int], decks: int) -> None:
    """Check that the shoe still holds the round's cards.

    ``dealt`` counts the cards already dealt from the shoe; a shoe of ``decks`` decks
    holds ``decks`` copies of each card. Raises :class:`ShoeCountError`.
    """
    errors = _shoe_errors(outcome.player_cards, outcome.banker_cards, dealt, decks)
    if errors:
        raise ShoeCountError(errors)


# Characters that change the direction of the text after them until they are closed (or
# the end of the paragraph): in a name they reorder what a page shows beside it.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Marks that set a direction without drawing: in a name they move the text beside it too.
BIDI_MARKS = frozenset("\u061c\u200e\u200f")
# Format characters a name may hold: the zero-width space marks word breaks (Thai,
# Khmer), the zero-width joiner and non-joiner shape letters (Persian, Indic scripts) and
# emoji. Every other (tags, soft hyphens, invisible operators, the marks above) draws
# nothing and can hide what a name says.
ALLOWED_FORMAT = frozenset("\u200b\u200c\u200d")
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Zs", "Zl", "Zp", "Mn", "Me"})  # categories that draw nothing alone
# Letters and symbols that draw a blank: the Braille blank, the Hangul fillers, the Khmer
# inherent vowels and the Mongolian vowel separator. A name of these alone looks empty.
BLANKS = frozenset("\u2800\u3164\u115f\u1160\uffa0\u17b4\u17b5\u180e")


def is_visible(text: str) -> bool:
    """Whether ``text`` draws anything: a name of zero-width spaces or fillers looks empty."""
    return any(unicodedata.category(char) not in INVISIBLE and char not in BLANKS for char in text)


def check_name(field: str, text: str) -> None:
    """A name (a dealer's, a table's) is printable text that shows what it says: a
    control character (NUL among them, which PostgreSQL cannot store at all, while SQLite
    stores it), an unpaired surrogate (no UTF-8 database stores one), a bidirectional
    control or mark (``\u202eannA`` shows as "Anna") or another format character (tag
    characters among them) is refused, on every database alike, and so is a name of
    invisible or blank characters alone. Raises :class:`IllegalRoundError`."""
    for position, char in enumerate(text):
        kind = None
        category = unicodedata.category(char)
        if category == "Cs":
            kind = "an unpaired surrogate"
        elif category == "Cc":
            kind = "a control character"
        elif char in BIDI_CONTROLS or char in BIDI_MARKS:
            kind = "a bidirectional control"
        elif category == "Cf" and char not in ALLOWED_FORMAT:
            kind = "an invisible format character"
        if kind is not None:
            message = f"{field} has {kind} (U+{ord(char):04X}) at position {position}: names are printable text"
            raise IllegalRoundError([FieldError(field, message)])
    if text and not is_visible(text):
        raise IllegalRoundError([FieldError(field, f"{field} has no visible character: a name must show something")])


def _parse_hand(side: str, codes: object) -> tuple[tuple[Card, ...], list[FieldError]]:
    if not isinstance(codes, list | tuple):
        return (), [FieldError(side, "must be a list of card codes")]
    cards: list[Card] = []
    errors: list[FieldError] = []
    for index, code in enumerate(codes):
        try:
            cards.append(Card.parse(code))
        except InvalidCardError as error:
            errors.append(FieldError(f"{side}[{index}]", str(error)))
    if not 2 <= len(codes) <= 3:
        errors.append(FieldError(side, f"a hand has 2 or 3 cards, got {len(codes)}"))
    return tuple(cards), errors


def _natural_note(player_score: int, banker_score: int) -> str:
    side, score = ("player", player_score) if is_natural(player_score) else ("banker", banker_score)
    return f"{side} has a natural {score}"


def _drawing_errors(player: tuple[Card, ...], banker: tuple[Card, ...]) -> list[FieldError]:
    """The first drawing rule the hands break (later rules depend on earlier ones)."""
    p2, b2 = hand_score(player[:2]), hand_score(banker[:2])
    natural = is_natural(p2) or is_natural(b2)
    player_drew = len(player) == 3
    if player_drew != player_draws(p2, b2):
        if player_drew and natural:
            return [FieldError("player[2]", f"player must stand: {_natural_note(p2, b2)}")]
        if player_drew:
            return [FieldError("player[2]", f"player must stand on {p2}")]
        return [FieldError("player", f"player must draw on {p2}")]

    player_third = player[2].value if player_drew else None
    banker_drew = len(banker) == 3
    if banker_drew == banker_draws(p2, b2, player_third):
        return []
    if banker_drew and natural:
        return [FieldError("banker[2]", f"banker must stand: {_natural_note(p2, b2)}")]
    if player_third is None:
        when = " when the player stands"
    elif 3 <= b2 <= 6:
        when = f" when the player's third card is {player_third}"
    else:
        when = ""
    if banker_drew:
        return [FieldError("banker[2]", f"banker must stand on {b2}{when}")]
    return [FieldError("banker", f"banker must draw on {b2}{when}")]


def _shoe_errors(
    player: tuple[Card, ...], banker: tuple[Card, ...], dealt: Mapping[Card, int], decks: int
) -> list[FieldError]:
    counts = Counter(dealt)
    errors = []
    positions = [("player", i, c) for i, c in enumerate(player)] + [("banker", i, c) for i, c in enumerate(banker)]
    for side, index, card in positions:
        if counts[card] >= decks:
            errors.append(
                FieldError(
                    f"{side}[{index}]",
                    f"{card.code} already dealt {decks} time{'s' if decks != 1 else ''} in this shoe",
                )
            )
        counts[card] += 1
    return errors
