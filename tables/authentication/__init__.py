"""Card authentication (seed 001): every card of a shoe committed before it is dealt (its
Public Hash Value), and each card's plaintext checked against it as the card is
burned, dealt or revealed.

- ``tables/game/authentication.py`` (the pure core): hashes, plaintexts, the burn.
- :mod:`.services`: the checks a burn, a round and a reveal make, and the refusals kept
  for reviewers; the reveal of a shoe's cards at its end.
- :mod:`.selectors`: a shoe's committed cards (plaintexts only once revealed), and the
  plaintexts refused.
- :mod:`.api`: the reveal, and a shoe's cards for anyone to check.
- ``tables/models/card_authentication.py``: the committed cards and the refusals.
- ``tables/verify.py``: checking a card or a downloaded shoe offline, with the standard
  library only; it stays at the app's top as ``python -m tables.verify``, the command
  the table page gives players.
"""
