"""Run every benchmark: `python -m benchmarks`."""

from . import odds, pages, roads

SUITES = (
    ("Roads (1,000 random 80-round shoes)", roads),
    ("Odds (exact enumeration)", odds),
    ("Pages (SQLite, in-process)", pages),
)

for title, module in SUITES:
    print(title)
    for name, value in module.main().items():
        print(f"  {name:60s} {value:10.1f}")
