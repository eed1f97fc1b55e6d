"""The ingest API and the public read API."""
