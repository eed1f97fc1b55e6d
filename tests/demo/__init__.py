"""The demo venue."""
