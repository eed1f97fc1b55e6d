"""Rounds the tests deal again and again, each named once."""

from __future__ import annotations

# Both hands draw: Player A♥ 3♠ (4) draws 5♦ to 9; Banker J♣ 2♥ (2) draws A♦ to 3. Player wins.
SEED = {"player": ["AH", "3S", "5D"], "banker": ["JC", "2H", "AD"]}
