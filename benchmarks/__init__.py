"""Speed benchmarks: `python -m benchmarks` runs them all and prints the figures."""
