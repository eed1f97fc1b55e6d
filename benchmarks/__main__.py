"""Run every benchmark: `python -m benchmarks`."""

from . import pages, roads

for title, module in (("Roads (1,000 random 80-round shoes)", roads), ("Pages (SQLite, in-process)", pages)):
    print(title)
    for name, value in module.main().items():
        print(f"  {name:52s} {value:10.1f}")
