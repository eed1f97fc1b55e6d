"""The pages players and screens read."""
