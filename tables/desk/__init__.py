"""The reviewer's desk: what a reviewer reads to settle a dispute and watch the shoes.

- :mod:`.rounds`: a round's admin page (hands, every bet, the odds after it, the roads as
  they stood, its audit history) and the form that voids it.
- :mod:`.shoe`: a shoe's admin page, a replay of its table page after any round.
- :mod:`.review`: reviewer statistics per table and date range (chi-square per shoe,
  flags, streaks, flat-bet curves), kept reports, and the round exports.
- :mod:`.dealers`: the dealer and table report (rounds dealt, voids, cancels, refusals,
  alarms, shoes' lengths per dealer and per table over a date range), and its CSV.
- :mod:`.views`: the review page, the exports, and admin's index with the desk's glance.

Admin's registrations stay in ``tables/admin.py``, which calls into these.
"""
