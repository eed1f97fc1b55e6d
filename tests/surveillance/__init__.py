"""Shoe surveillance: alarms from the cards, the desk, webhooks, dealer and operations signals."""
