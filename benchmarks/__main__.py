"""Run every benchmark: `python -m benchmarks`."""

from . import roads

print("Roads (1,000 random 80-round shoes)")
for name, value in roads.main().items():
    print(f"  {name:52s} {value:10.1f}")
