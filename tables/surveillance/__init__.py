"""Shoe surveillance: integrity alarms from the cards, for the casino (never the players).

- :mod:`.alarms`: the one service that raises an alarm (a finding of the pure checks in
  :mod:`tables.game`, stored once) and notes a reviewer's acknowledgement or resolution.

A recorded round queues the checks of its shoe after commit; an alarm raised is pushed
to the reviewer's desk and sent to the webhooks that asked for its kind.
"""
