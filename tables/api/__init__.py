"""The dealer ingest API and the public read API (OpenAPI schema at /api/docs).

- :mod:`.core`: the API object, the one error shape and its handlers (service refusals,
  invalid bodies, a database that is down), Django's error pages under /api/, the
  table token.
- :mod:`.bodies`: how a body is read (JSON text in UTF-8, small) before any operation.
- :mod:`.schemas`: what the operations read and answer.
- :mod:`.shoes`, :mod:`.rounds`, :mod:`.dealing` (card by card): the operations.
- :mod:`.site`: the API with every feature's operations (card authentication's are
  :mod:`tables.authentication.api`), in the order the schema lists them.
"""
