"""Operations: what a casino's IT watches the service by.

- :mod:`.probes`: the middleware, ahead of every other, answering ``/healthz``
  (liveness), ``/readyz`` (readiness) and ``/metrics``, so a load balancer or Prometheus
  asking a server's own port over plain HTTP, by its address, gets an answer rather than
  a redirect or a 400.
- :mod:`.readiness`: the dependency checks (database and migrations, cache, channel
  layer, broker); :mod:`.checks` runs them at once within a deadline (pure).
- :mod:`.metrics`: the product's numbers, counted where they happen (no Django: any room
  may count); :mod:`.exposition` writes them for Prometheus, with what is read at scrape
  time.
- :mod:`.logs`: the logging filter that keeps the probes out of the logs.
"""
