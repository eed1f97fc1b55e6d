"""Shoe surveillance."""
