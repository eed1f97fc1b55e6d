"""The demo: a small venue that deals by itself.

- :mod:`.venue`: the demo tables (names, variants, cut-card rules, limits), made once.
- :mod:`.simulator`: real shoes dealt by the rules into tables through the services,
  authenticated shoes included: card by card at a dealer's rhythm
  (:func:`tables.services.card_deal`; the embedded server's loop and ``manage.py
  simulate``), or whole rounds (:func:`tables.services.round_record`; beat's task and
  ``manage.py simulate --whole-rounds``).
"""
