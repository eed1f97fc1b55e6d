"""Roads as small text pictures: six rows, one character a cell, '.' empty."""

from __future__ import annotations

from roads.engine import Roads
from roads.entries import RoadRound


def shoe(text: str) -> list[RoadRound]:
    """``"B P T B"`` (or ``"BPTB"``) as rounds; ``b``/``p`` add a banker/player pair."""
    rounds = []
    for index, char in enumerate(text.replace(" ", "")):
        rounds.append(RoadRound.parse(char.upper(), index))
        if char in "bp":
            rounds[-1] = RoadRound(rounds[-1].winner, char == "b", char == "p", index)
    return rounds


def roads_of(text: str) -> Roads:
    return Roads.of(shoe(text))


def picture(cells: list[dict], char: callable) -> str:  # type: ignore[valid-type]
    width = max((c["col"] for c in cells), default=-1) + 1
    grid = [["."] * width for _ in range(6)]
    for cell in cells:
        assert grid[cell["row"]][cell["col"]] == ".", f"two cells at {cell}"
        grid[cell["row"]][cell["col"]] = char(cell)
    return "\n".join("".join(row) for row in grid)


def big_road(text: str) -> str:
    return picture(roads_of(text).to_data()["big_road"]["cells"], lambda c: c["winner"] or "-")


def derived(text: str, road: str) -> str:
    return picture(roads_of(text).to_data()[road]["cells"], lambda c: c["color"][0])


def expected(art: str) -> str:
    return "\n".join(line.strip() for line in art.strip().splitlines())
