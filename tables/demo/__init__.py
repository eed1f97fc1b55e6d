"""The demo: a small venue that deals by itself.

- :mod:`.venue`: the demo tables (names, variants, cut-card rules, limits), made once.
- :mod:`.simulator`: real shoes dealt by the rules into tables through the services
  (:func:`tables.services.round_record`), authenticated shoes included; the embedded
  server's loop, beat's task and ``manage.py simulate`` drive it.
"""
