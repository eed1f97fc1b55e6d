"""Operations: what a casino's IT watches the service by.

- :mod:`.checks`: dependency checks run at once, each answered within a deadline (pure).
- :mod:`.probes`: ``/healthz`` (liveness) and ``/readyz`` (readiness: the database and
  its migrations, the cache, the channel layer and the Celery broker), answered by a
  middleware ahead of every other, so a load balancer probing a server's own port over
  plain HTTP, by its address, gets an answer rather than a redirect or a 400.
- :mod:`.logs`: logging filters that keep the probes out of access logs.
"""
