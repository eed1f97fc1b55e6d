"""Background work, in one room: everything that runs after a request is answered.

- :mod:`.runner`: this process's job runner (inline in tests, a thread otherwise), and
  :func:`~.runner.enqueue`, which sends a task to Celery by name when there is a broker
  and runs its job on the runner when there is none.
- :mod:`.odds`: the exact odds of each round, queued after it commits, computed a shoe
  at a time, and the sweep for jobs that were lost.
- :mod:`.tasks`: the Celery tasks (odds, the sweeps, the demo tables, lobby cards, webhooks),
  each a thin wrapper.
- :mod:`.sweeps`, :mod:`.loops`: what an ASGI server of the embedded default runs beside
  its pages; ``config/asgi.py`` asks :func:`~.loops.embedded_loops` for them.

Code that queues work imports :mod:`.odds` or :mod:`.runner`, never :mod:`.tasks`:
the tasks import everything they run, so the task seam has no import circle.
"""
