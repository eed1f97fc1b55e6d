"""Card authentication (seed 001)."""
