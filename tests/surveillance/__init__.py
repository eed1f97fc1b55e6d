"""Shoe surveillance: alarms sent to the casino's webhooks."""
