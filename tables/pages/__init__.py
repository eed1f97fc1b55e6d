"""The pages players and screens read, and the fragments pushed into them.

- :mod:`.views`: the lobby, the lobby wall, the table page, the display beside a table,
  the payouts & odds page, the road tips.
- :mod:`.fragments`: the live parts of those pages, rendered by their own templates for
  a page and for a push (whole, or only what changed since a page's version).
- :mod:`.odds_panel`: the odds a table's pages show (stored after each round by
  :mod:`tables.background.odds`) and the full-shoe return tables.
- :mod:`.charts`: the plotly figures of the game stats and the odds.
- :mod:`.receipts`, :mod:`.receipt_views`: a round's public receipt by Transaction ID.
- :mod:`.road_pictures`: the good roads' pictures in docs/roads/.
"""
